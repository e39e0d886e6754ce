import type { AppRecord } from '@lineup/runtime';
import { mcpViewGrantableSources, mcpViewGrantedSources } from '@lineup/shared/protocol';
import { useText } from '../i18n/LanguageProvider.tsx';
import type { AppCenter as AppCenterModel } from './app-center.ts';

/**
 * The origins a MiniApp's page declares it connects to (`connect_domains`), and the user's grant of them: all or
 * nothing, nothing by default, revocable here. An app that declares none shows nothing.
 */
export function PageNetwork({
  name,
  record,
  center,
}: {
  readonly name: string;
  readonly record: Exclude<AppRecord, { kind: 'mcp_server' }>;
  readonly center: AppCenterModel;
}) {
  const text = useText();
  const declared = { connect_domains: record.manifest.connect_domains ?? [] };
  const grantable = mcpViewGrantableSources(declared);
  if (grantable.length === 0) return null;
  const granted = mcpViewGrantedSources(declared, record.consent?.network?.page);
  // What it declares beyond what was granted (an update that declared more gets nothing more).
  const more = granted.length > 0 ? grantable.filter((source) => !granted.includes(source)) : [];
  return (
    <>
      <h3 className="host__app-section">{text.apps.page.networkTitle}</h3>
      <div className="host__view-network">
        <p className="host__app-hint">
          {granted.length > 0
            ? text.apps.mcp.connectGranted(granted)
            : text.apps.page.connectAsked(grantable)}
        </p>
        {more.length > 0 && (
          <>
            <p className="host__app-hint">{text.apps.mcp.networkMore(more, [], [])}</p>
            <button
              type="button"
              aria-label={text.apps.mcp.connectLabel(name, more)}
              onClick={() => void center.setPageNetwork(record.id, true)}
            >
              {text.apps.mcp.allowConnect}
            </button>
          </>
        )}
        <button
          type="button"
          aria-label={granted.length > 0 ? undefined : text.apps.mcp.connectLabel(name, grantable)}
          onClick={() => void center.setPageNetwork(record.id, granted.length === 0)}
        >
          {granted.length > 0 ? text.apps.mcp.stopConnect : text.apps.mcp.allowConnect}
        </button>
      </div>
    </>
  );
}
