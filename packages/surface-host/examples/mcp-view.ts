import { mcpViewBundle, mountMcpView } from '@lineup/surface-host';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';

// An MCP App view (a server's ui:// resource, kept at install) in a contained Surface frame, with the MCP Apps
// SDK's own AppBridge as the host end. The view has no network; it speaks JSON-RPC over the frame's port only,
// and what it asks for goes to the host's handlers — here, a tools/call of its own server's tool.
export async function showView(
  container: HTMLElement,
  html: string,
  callTool: (
    name: string,
    args: Record<string, unknown>,
  ) => Promise<{ content: { type: 'text'; text: string }[] }>,
) {
  const view = mountMcpView(container, {
    instanceId: 'clock.view.01',
    name: 'Clock',
    view: mcpViewBundle(html),
  });
  const bridge = new AppBridge(
    null,
    { name: 'My host', version: '1.0.0' },
    { serverTools: {} },
    { hostContext: { theme: 'dark', locale: 'en-US', displayMode: 'inline', platform: 'web' } },
  );
  bridge.oncalltool = (params) => callTool(params.name, params.arguments ?? {});
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) view.resize(height);
  };
  await bridge.connect(view.transport as never);
  return { view, bridge };
}
