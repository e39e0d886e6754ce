import type { McpViewStorage } from '@lineup/shared/bridge';
import { mcpViewBundle, mountMcpView } from '@lineup/surface-host';

// A view's state survives: what it wrote to `localStorage` (a map's camera, a form's draft) comes back as `onStorage`
// snapshots, which the host keeps — per call, in its own storage — and gives back as `storage` when it shows the
// view for that call again, also after a reload. The view does nothing special: it uses `localStorage` as any page.
export function showWithState(
  container: HTMLElement,
  html: string,
  kept: Map<string, McpViewStorage>,
  callId: string,
) {
  return mountMcpView(container, {
    instanceId: `view.${callId}`,
    name: 'Map',
    view: mcpViewBundle(html),
    storage: kept.get(callId) ?? [],
    onStorage: (entries) => kept.set(callId, entries),
  });
}
