import type { AppRecord } from '@lineup/runtime';
import {
  mcpViewGrantableDevices,
  mcpViewGrantableResources,
  mcpViewGrantableSources,
  mcpViewGrantedDevices,
  mcpViewGrantedResources,
  mcpViewGrantedSources,
} from '@lineup/shared/protocol';
import { useText } from '../i18n/LanguageProvider.tsx';
import type { AppCenter as AppCenterModel } from './app-center.ts';
import { mcpViewWithheld } from './grant-question.ts';
import { formatBytes } from './installed-apps.ts';

/**
 * An MCP server's views — what each declared it needs, the origins the user may let it connect to (all or nothing
 * for the view, revocable here; nothing by default), and what it never gets — and its view-only tools.
 */
export function McpServerParts({
  name,
  record,
  center,
}: {
  readonly name: string;
  readonly record: Extract<AppRecord, { kind: 'mcp_server' }>;
  readonly center: AppCenterModel;
}) {
  const text = useText();
  const { manifest } = record;
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
            const grantable = mcpViewGrantableSources(declared);
            const grantableResources = mcpViewGrantableResources(declared);
            const grant = record.consent?.network?.[view.id];
            const granted = mcpViewGrantedSources(declared, grant);
            const grantedResources = mcpViewGrantedResources(declared, grant);
            const grantableDevices = mcpViewGrantableDevices(declared);
            const grantedDevices = mcpViewGrantedDevices(declared, grant);
            const isGranted = granted.length > 0 || grantedResources.length > 0 || grantedDevices.length > 0;
            // What it declares beyond what was granted (a refresh that declared more gets nothing more).
            const more = {
              connect: grantable.filter((source) => !granted.includes(source)),
              resources: grantableResources.filter((source) => !grantedResources.includes(source)),
              devices: grantableDevices.filter((device) => !grantedDevices.includes(device)),
            };
            const partial =
              isGranted && more.connect.length + more.resources.length + more.devices.length > 0;
            const offered = grantable.length + grantableResources.length + grantableDevices.length > 0;
            // A view that asks only for devices is allowed devices, not "connections".
            const devicesOnly = grantable.length + grantableResources.length === 0;
            // What it declared that no view gets: frames, base URIs, origins that cannot be granted, devices.
            const withheld = mcpViewWithheld(declared);
            return (
              <li key={view.id}>
                <code>{view.uri}</code>{' '}
                <span className="host__tool-meta">
                  {text.apps.mcp.viewSize(formatBytes(sizes.get(view.path) ?? 0))}
                </span>
                {offered && (
                  <div className="host__view-network">
                    <p className="host__app-hint">
                      {isGranted
                        ? text.apps.mcp.networkGranted(granted, grantedResources, grantedDevices)
                        : text.apps.mcp.networkAsked(grantable, grantableResources, grantableDevices)}
                    </p>
                    {partial && (
                      <>
                        <p className="host__app-hint">
                          {text.apps.mcp.networkMore(more.connect, more.resources, more.devices)}
                        </p>
                        <button
                          type="button"
                          aria-label={text.apps.mcp.connectLabel(view.uri, [
                            ...new Set([...more.connect, ...more.resources, ...more.devices]),
                          ])}
                          onClick={() => void center.setViewNetwork(record.id, view.id, true)}
                        >
                          {text.apps.mcp.allowConnect}
                        </button>
                      </>
                    )}
                    <button
                      type="button"
                      aria-label={
                        isGranted
                          ? undefined
                          : devicesOnly
                            ? text.apps.mcp.devicesLabel(view.uri, grantableDevices)
                            : text.apps.mcp.connectLabel(view.uri, [
                                ...new Set([...grantable, ...grantableResources, ...grantableDevices]),
                              ])
                      }
                      onClick={() => void center.setViewNetwork(record.id, view.id, !isGranted)}
                    >
                      {isGranted
                        ? text.apps.mcp.stopConnect
                        : devicesOnly
                          ? text.apps.mcp.allowDevices
                          : text.apps.mcp.allowConnect}
                    </button>
                  </div>
                )}
                {withheld !== undefined && (
                  <p className="host__app-hint">{text.apps.mcp.withheld(withheld.domains, withheld.media)}</p>
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
