/**
 * One inline Surface in the conversation, mounted by @lineup/surface-host in a sandboxed frame. The close
 * button is the user's close: it removes the Surface and tells the agent (`ui.event` `close`).
 */

import type { UIOpenPayload } from '@lineup/shared/protocol';
import type { SurfaceInstances } from '@lineup/surface-host';
import { useEffect, useRef } from 'react';
import { useText } from '../i18n.tsx';

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
  // Read when the frame opens; later patches reach the open frame directly.
  const stateRef = useRef(state);
  stateRef.current = state;
  useEffect(() => {
    const current = stateRef.current;
    const handle = instances.open(
      slot.current!,
      current === undefined ? payload : { ...payload, state: current },
    );
    return () => {
      // Unmounted (replaced or removed): the frame goes, no event is sent.
      if (instances.get(payload.instance_id) === handle)
        instances.close({ instance_id: payload.instance_id, reason: 'removed' });
    };
  }, [instances, payload]);
  const text = useText();
  const name = payload.app?.name ?? payload.instance_id;
  return (
    <div className="host__surface">
      <div className="host__surface-bar">
        <span>{name}</span>
        <button type="button" aria-label={text.closeNamed(name)} onClick={onUserClose}>
          ×
        </button>
      </div>
      <div ref={slot} />
    </div>
  );
}
