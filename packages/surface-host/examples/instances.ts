import { parseEnvelope, type UIEventPayload } from '@lineup/shared/protocol';
import { SurfaceInstances } from '@lineup/surface-host';

// A client's handling of the three Surface messages from the agent (open, patch, close): the same instance id
// replaces, a patch carries state only, close removes; the user's close goes back as ui.event "close".
export function createSurfaceClient(container: HTMLElement, sendToAgent: (payload: UIEventPayload) => void) {
  const instances = new SurfaceInstances({ onEvent: sendToAgent });
  return {
    instances,
    receive(message: unknown): string {
      const parsed = parseEnvelope(message, { direction: 'agent_to_client' });
      if (parsed.kind === 'unsupported') return 'unsupported';
      const { message: valid } = parsed;
      switch (valid.type) {
        case 'lineup.v1.ui.open':
          instances.open(container, valid.payload);
          return 'opened';
        case 'lineup.v1.ui.patch':
          return instances.patch(valid.payload);
        case 'lineup.v1.ui.close':
          return instances.close(valid.payload);
        default:
          return 'not a Surface message';
      }
    },
  };
}
