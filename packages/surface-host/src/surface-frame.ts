/**
 * Mounting one Surface instance (seed 000 §2, §4; flow 2 of the design): a sandboxed `srcdoc` iframe and the
 * host's end of `lineup.surface.v1`. The host end accepts a message only when it comes from this frame's
 * window, with an opaque origin, in the Surface namespace, for this instance, with a valid name and JSON data
 * within size (`parseSurfaceMessageFromFrame`); everything else is dropped and reported. It sends the frame
 * nothing but state: after `ready`, and on every patch.
 */
import { LineUpProtocolError, type UIIssue } from '@lineup/shared';
import {
  parseSurfaceMessageFromFrame,
  parseSurfaceMessageToFrame,
  SURFACE_CHANNEL_LIMITS,
  SURFACE_NAMESPACE,
} from '@lineup/shared/bridge';
import type { UIEventPayload } from '@lineup/shared/protocol';
import { SURFACE_CSP, SURFACE_PERMISSIONS_POLICY, SURFACE_SANDBOX } from './sandbox.js';
import { buildSurfaceSrcdoc, type SurfaceBundleText } from './srcdoc.js';

/** A user intent from the Surface: exactly the payload of `lineup.v1.ui.event` (seed 000 §4.2). */
export type SurfaceEvent = UIEventPayload;

/** Why a message from the frame, or the frame itself, was refused. */
export type SurfaceRejection =
  | { readonly reason: 'invalid_message'; readonly issues: readonly UIIssue[] }
  /** The frame left its srcdoc document (a navigation); it was removed. */
  | { readonly reason: 'navigated' };

export interface MountSurfaceOptions {
  /** seed 000 §4.1 `instance_id`. */
  readonly instanceId: string;
  /** The bundle's texts, and its name as the frame's accessible title. */
  readonly bundle: SurfaceBundleText & { readonly name: string };
  /** The initial state (seed 000 §4.1), delivered after the frame's `ready`. */
  readonly state: Readonly<Record<string, unknown>>;
  /** Each valid user event, as the `ui.event` payload to send to the agent. */
  readonly onEvent: (event: SurfaceEvent) => void;
  /** Each dropped message and a navigation away; for diagnostics and audit. */
  readonly onRejected?: (rejection: SurfaceRejection) => void;
  /** Height in CSS pixels before the Surface asks for another (default 240). */
  readonly initialHeight?: number;
  /** The most a `resize` may ask for here, in CSS pixels (default 1,200; never above the channel limit). */
  readonly maxHeight?: number;
}

export interface SurfaceHandle {
  readonly instanceId: string;
  readonly frame: HTMLIFrameElement;
  /**
   * Delivers a new state (seed 000 §4.3 `ui.patch`): validated first (a JSON object within the size limit;
   * throws `LineUpProtocolError` and changes nothing otherwise), sent now if the frame is ready, else after
   * its `ready`.
   */
  patch(state: unknown): void;
  /** Removes the frame and stops listening. Calling it again does nothing. */
  close(): void;
  readonly closed: boolean;
}

const DEFAULT_HEIGHT = 240;
const DEFAULT_MAX_HEIGHT = 1_200;
/** What browsers report as the origin of a sandboxed frame without allow-same-origin. */
const OPAQUE_ORIGIN = 'null';

/** Mounts a Surface in `container` and returns its handle. */
export function mountSurface(container: HTMLElement, options: MountSurfaceOptions): SurfaceHandle {
  const { instanceId, bundle, onEvent, onRejected } = options;
  const maxHeight = Math.min(options.maxHeight ?? DEFAULT_MAX_HEIGHT, SURFACE_CHANNEL_LIMITS.maxFrameHeight);
  // The initial state goes through the same check as every patch, before anything is mounted.
  let state = stateMessage(instanceId, options.state).state;

  const view = container.ownerDocument.defaultView;
  if (view === null) throw new TypeError('mountSurface: the container is not in a window.');
  const frame = container.ownerDocument.createElement('iframe');
  frame.setAttribute('sandbox', SURFACE_SANDBOX);
  frame.setAttribute('allow', SURFACE_PERMISSIONS_POLICY);
  // CSP Embedded Enforcement (Chromium): whatever the frame navigates to must accept this policy too, so a
  // Surface that navigates its own frame does not get a document without it.
  frame.setAttribute('csp', SURFACE_CSP);
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.setAttribute('title', bundle.name);
  frame.setAttribute('data-instance-id', instanceId);
  frame.className = 'lineup-surface';
  frame.style.width = '100%';
  frame.style.border = '0';
  frame.style.display = 'block';
  frame.style.height = `${Math.min(options.initialHeight ?? DEFAULT_HEIGHT, maxHeight)}px`;
  frame.srcdoc = buildSurfaceSrcdoc(instanceId, bundle);

  let ready = false;
  let closed = false;
  let loads = 0;

  const sendState = () => {
    frame.contentWindow?.postMessage(
      { namespace: SURFACE_NAMESPACE, type: 'state', instance_id: instanceId, state },
      // An opaque-origin frame cannot be addressed by origin; the window reference is the address.
      '*',
    );
  };

  const onMessage = (event: MessageEvent) => {
    if (closed || frame.contentWindow === null || event.source !== frame.contentWindow) return;
    if (event.origin !== OPAQUE_ORIGIN) return;
    let message: ReturnType<typeof parseSurfaceMessageFromFrame>;
    try {
      message = parseSurfaceMessageFromFrame(event.data, instanceId);
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      onRejected?.({ reason: 'invalid_message', issues: error.issues });
      return;
    }
    switch (message.type) {
      case 'ready':
        // A reloaded bridge says ready again and gets the current state again.
        ready = true;
        sendState();
        return;
      case 'event':
        onEvent({ instance_id: instanceId, event: message.event, data: message.data });
        return;
      case 'resize':
        frame.style.height = `${Math.min(Math.ceil(message.height), maxHeight)}px`;
        return;
    }
  };

  // A srcdoc frame loads once. A second load means the Surface navigated its frame elsewhere (the sandbox
  // blocks top navigation, not self navigation), so what is in it is no longer the Surface the host built.
  const onLoad = () => {
    loads++;
    if (loads > 1) {
      handle.close();
      onRejected?.({ reason: 'navigated' });
    }
  };

  const handle: SurfaceHandle = {
    instanceId,
    frame,
    get closed() {
      return closed;
    },
    patch(next: unknown) {
      if (closed) throw new TypeError(`Surface ${instanceId} is closed.`);
      state = stateMessage(instanceId, next).state;
      if (ready) sendState();
    },
    close() {
      if (closed) return;
      closed = true;
      view.removeEventListener('message', onMessage);
      frame.removeEventListener('load', onLoad);
      frame.remove();
    },
  };

  view.addEventListener('message', onMessage);
  frame.addEventListener('load', onLoad);
  container.appendChild(frame);
  return handle;
}

/** A state message for the frame, validated as the channel defines it. */
function stateMessage(instanceId: string, state: unknown) {
  const message = parseSurfaceMessageToFrame(
    { namespace: SURFACE_NAMESPACE, type: 'state', instance_id: instanceId, state },
    instanceId,
  );
  return message;
}
