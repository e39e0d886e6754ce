/**
 * The Surface instances of one conversation (seed 000 §4): `ui.open` creates an instance or replaces the one
 * with the same `instance_id`, `ui.patch` only ever delivers a new state, `ui.close` removes it, and a user
 * close is reported to the agent as `ui.event` `close` (seed 000 §4.3). Payloads are the ones
 * `parseEnvelope` returned (`@lineup/shared/protocol`).
 */
import type { UIClosePayload, UIOpenPayload, UIPatchPayload } from '@lineup/shared/protocol';
import type { ReferencedSurface } from './reference.js';
import {
  type MountSurfaceOptions,
  mountSurface,
  type SurfaceEvent,
  type SurfaceHandle,
} from './surface-frame.js';

export interface SurfaceInstancesOptions {
  /** Every user event of every instance, as the `ui.event` payload for the agent. */
  readonly onEvent: (event: SurfaceEvent) => void;
  /** Dropped messages and navigations, with the instance they concern. */
  readonly onRejected?: (
    instanceId: string,
    rejection: Parameters<NonNullable<MountSurfaceOptions['onRejected']>>[0],
  ) => void;
  readonly maxHeight?: number;
}

/** What happened to a `ui.patch` or `ui.close`: `unknown_instance` when no such instance is open. */
export type SurfaceUpdateOutcome = 'applied' | 'unknown_instance';

export class SurfaceInstances {
  readonly #options: SurfaceInstancesOptions;
  readonly #open = new Map<string, SurfaceHandle>();

  constructor(options: SurfaceInstancesOptions) {
    this.#options = options;
  }

  /**
   * `ui.open`: mounts the Surface in `container`, closing an open instance of the same id first (seed 000 §4.1:
   * the same id replaces). An inline bundle (`payload.app`) is mounted as it is; a `payload.surface` reference
   * needs the `referenced` Surface the host resolved from the app's verified files (`surfaceBundleFromFiles`),
   * and passes only the events it declares. A reference without it throws `TypeError`.
   */
  open(container: HTMLElement, payload: UIOpenPayload, referenced?: ReferencedSurface): SurfaceHandle {
    const inline = payload.app;
    if (inline === undefined && referenced === undefined)
      throw new TypeError(
        'SurfaceInstances.open: a Surface by reference needs the installed app’s Surface (referenced); answer the agent with unsupported when there is none.',
      );
    this.#open.get(payload.instance_id)?.close();
    const instanceId = payload.instance_id;
    const handle = mountSurface(container, {
      instanceId,
      ...(inline !== undefined
        ? { bundle: inline }
        : {
            bundle: {
              ...(referenced as ReferencedSurface).bundle,
              name: (referenced as ReferencedSurface).name,
            },
            events: (referenced as ReferencedSurface).events,
          }),
      state: payload.state,
      onEvent: this.#options.onEvent,
      onRejected: (rejection) => {
        if (rejection.reason === 'navigated' && this.#open.get(instanceId) === handle)
          this.#open.delete(instanceId);
        this.#options.onRejected?.(instanceId, rejection);
      },
      ...(this.#options.maxHeight === undefined ? {} : { maxHeight: this.#options.maxHeight }),
    });
    this.#open.set(instanceId, handle);
    return handle;
  }

  /** `ui.patch`: the new state only (seed 000 §4.3); code cannot be patched. */
  patch(payload: UIPatchPayload): SurfaceUpdateOutcome {
    const handle = this.#open.get(payload.instance_id);
    if (handle === undefined) return 'unknown_instance';
    handle.patch(payload.state);
    return 'applied';
  }

  /** `ui.close` from the agent: removes the instance. No event goes back: the agent asked for it. */
  close(payload: UIClosePayload): SurfaceUpdateOutcome {
    const handle = this.#open.get(payload.instance_id);
    if (handle === undefined) return 'unknown_instance';
    handle.close();
    this.#open.delete(payload.instance_id);
    return 'applied';
  }

  /** The user closed the instance: remove it and tell the agent with `ui.event` `close` (seed 000 §4.3). */
  userClose(instanceId: string): SurfaceUpdateOutcome {
    const handle = this.#open.get(instanceId);
    if (handle === undefined) return 'unknown_instance';
    handle.close();
    this.#open.delete(instanceId);
    this.#options.onEvent({ instance_id: instanceId, event: 'close', data: {} });
    return 'applied';
  }

  /** The open instance with this id, if any. */
  get(instanceId: string): SurfaceHandle | undefined {
    return this.#open.get(instanceId);
  }

  /** Closes every instance (the conversation went away); no events are sent. */
  closeAll(): void {
    for (const handle of this.#open.values()) handle.close();
    this.#open.clear();
  }
}
