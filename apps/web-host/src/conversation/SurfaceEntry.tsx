/**
 * One Surface in the conversation, mounted by @lineup/surface-host in a sandboxed frame. An inline Surface
 * mounts as the agent sent it; a Surface by reference (an installed app's declared Surface) is read from the
 * app's kept files, checked against its manifest first, under the same sandbox, policy and bridge, and passes
 * only the events the app declares. The close button is the user's close: it removes the Surface and tells
 * the agent (`ui.event` `close`).
 */

import type { UIOpenPayload } from '@lineup/shared/protocol';
import { type SurfaceInstances, surfaceBundleFromFiles } from '@lineup/surface-host';
import { useEffect, useRef, useState } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';
import { useRuntime } from '../runtime.tsx';

export function SurfaceEntry({
  payload,
  state,
  instances,
  onUserClose,
}: {
  readonly payload: UIOpenPayload;
  /** A later state than the payload's (from a `ui.patch`): the frame opens with it. */
  readonly state?: UIOpenPayload['state'] | undefined;
  readonly instances: SurfaceInstances;
  readonly onUserClose: () => void;
}) {
  const slot = useRef<HTMLDivElement>(null);
  const runtime = useRuntime();
  const registry = runtime.status === 'ready' ? runtime.registry : null;
  const [name, setName] = useState(payload.app?.name ?? payload.instance_id);
  const [problem, setProblem] = useState<string | null>(null);
  // Read when the frame opens; later patches reach the open frame directly.
  const stateRef = useRef(state);
  stateRef.current = state;
  useEffect(() => {
    let active = true;
    let handle: ReturnType<SurfaceInstances['open']> | null = null;
    const open = (referenced?: Parameters<SurfaceInstances['open']>[2]) => {
      const current = stateRef.current;
      handle = instances.open(
        slot.current!,
        current === undefined ? payload : { ...payload, state: current },
        referenced,
      );
    };
    const reference = payload.surface;
    if (reference === undefined) open();
    else if (registry !== null)
      registry
        .surfaceFiles(reference)
        .then(({ app, surface, files }) => {
          if (!active) return;
          setName(app.name);
          open({
            name: app.name,
            bundle: surfaceBundleFromFiles(surface.entry, files),
            events: surface.events,
          });
        })
        .catch((error: unknown) => {
          if (active) setProblem(error instanceof Error ? error.message : String(error));
        });
    return () => {
      active = false;
      // Unmounted (replaced or removed): the frame goes, no event is sent.
      if (handle !== null && instances.get(payload.instance_id) === handle)
        instances.close({ instance_id: payload.instance_id, reason: 'removed' });
    };
  }, [instances, payload, registry]);
  const text = useText();
  return (
    <div className="host__surface">
      <div className="host__surface-bar">
        <span>{name}</span>
        <button type="button" aria-label={text.closeNamed(name)} onClick={onUserClose}>
          {text.workspace.close}
        </button>
      </div>
      {problem !== null && (
        <p className="host__surface-problem" role="alert">
          {text.surfaceUnavailable(problem)}
        </p>
      )}
      <div ref={slot} />
    </div>
  );
}
