import { type McpServerManifest, mcpViewAsksForMore } from '@lineup/shared/protocol';
import { useText } from '../i18n/LanguageProvider.tsx';
import { formatBytes } from './installed-apps.ts';

/** An MCP server's views (what each declared it needs, and that it gets none of it) and its view-only tools. */
export function McpServerParts({
  name,
  manifest,
}: {
  readonly name: string;
  readonly manifest: McpServerManifest;
}) {
  const text = useText();
  const sizes = new Map(manifest.files.map((file) => [file.path, file.size]));
  return (
    <>
      <h3 className="host__app-section">{text.apps.mcp.viewsTitle}</h3>
      {manifest.views.length === 0 ? (
        <p className="host__app-none">{text.apps.mcp.noViews}</p>
      ) : (
        <ul className="host__tools" aria-label={`${name} ${text.apps.mcp.viewsTitle}`}>
          {manifest.views.map((view) => {
            const { declared } = view;
            const domains = [
              ...declared.connect_domains,
              ...declared.resource_domains,
              ...declared.frame_domains,
              ...declared.base_uri_domains,
            ];
            const devices =
              declared.camera || declared.microphone || declared.geolocation || declared.clipboard_write;
            const needs = [
              ...(domains.length > 0 ? [text.apps.mcp.network([...new Set(domains)])] : []),
              ...(devices ? [text.apps.mcp.devices] : []),
            ];
            return (
              <li key={view.id}>
                <code>{view.uri}</code>{' '}
                <span className="host__tool-meta">
                  {text.apps.mcp.viewSize(formatBytes(sizes.get(view.path) ?? 0))}
                </span>
                {mcpViewAsksForMore(declared) && (
                  <p className="host__app-hint">{text.apps.mcp.asksFor(needs.join(' · '))}</p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {manifest.app_tools.length > 0 && (
        <>
          <h3 className="host__app-section">{text.apps.mcp.viewTools}</h3>
          <ul className="host__tools" aria-label={`${name} ${text.apps.mcp.viewTools}`}>
            {manifest.app_tools.map((tool) => (
              <li key={tool.tool}>
                <code>{tool.tool}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
