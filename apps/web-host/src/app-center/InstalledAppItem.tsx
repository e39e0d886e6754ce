/**
 * One installed app in the app center: its facts (version, size, integrity, a pending upgrade, the last refusal or
 * rollback), its actions (enable or disable, check for an update, uninstall after a question), its Agent Tools with
 * their consent settings, its Surfaces or an MCP server's views, and its audit log.
 */
import { useEffect, useRef, useState } from 'react';
import { clockTime } from '../console/message-log.ts';
import { useText } from '../i18n/LanguageProvider.tsx';
import { ActionStatus } from './ActionStatus.tsx';
import type { AppCenter as AppCenterModel } from './app-center.ts';
import { GrantList, HeldChange, ServerTrust, ToolPolicyControl } from './ConsentSettings.tsx';
import { formatBytes, type InstalledApp } from './installed-apps.ts';
import { McpServerParts } from './McpServerParts.tsx';
import { PageNetwork } from './PageNetwork.tsx';
import type { ActionState } from './snapshot.ts';
import { ToolItem } from './ToolItem.tsx';

export function InstalledAppItem({
  center,
  app,
  action,
}: {
  readonly center: AppCenterModel;
  readonly app: InstalledApp;
  readonly action: ActionState | undefined;
}) {
  const text = useText();
  const { record } = app;
  const { manifest } = record;
  const name = manifest.name;
  const running = action?.status === 'running';
  const [confirming, setConfirming] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const uninstall = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  useEffect(() => {
    // The question takes the focus, on its safe answer; going back returns it to the button that asked.
    if (confirming) keep.current?.focus();
    else if (wasConfirming.current) uninstall.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  const audit = text.apps.auditTypes;
  return (
    <li className="host__app" aria-label={name}>
      <div className="host__app-head">
        <strong>{name}</strong>
        {record.kind === 'mcp_server' && <span className="host__app-kind">{text.apps.mcp.badge}</span>}
        <span className="host__app-version">{manifest.version}</span>
        <span className={`host__app-state host__app-state--${record.enabled ? 'enabled' : 'disabled'}`}>
          {record.enabled ? text.apps.enabled : text.apps.disabled}
        </span>
      </div>
      <div className="host__app-facts">
        <span className="host__app-id">{record.id}</span>
        <span>{text.apps.size(formatBytes(app.bundleBytes))}</span>
      </div>
      {record.kind === 'mcp_server' && (
        <p className="host__app-server">
          {text.apps.mcp.server(record.manifest.server.url)}{' '}
          <span className="host__tool-meta">
            {text.apps.mcp.protocol(record.manifest.server.protocol_version)}
          </span>
        </p>
      )}
      {record.kind === 'mcp_server' && center.credentialKind(record.id) === 'token' && (
        <p className="host__app-server">
          {text.apps.mcp.tokenKept}{' '}
          <button
            type="button"
            disabled={running}
            aria-label={text.apps.named(text.apps.mcp.forgetToken, name)}
            onClick={() => void center.forgetToken(record.id)}
          >
            {text.apps.mcp.forgetToken}
          </button>
        </p>
      )}
      {record.kind === 'mcp_server' &&
        center.credentialKind(record.id) === 'token' &&
        center.tokenRefusedAt(record.id) !== undefined && (
          <p className="host__app-problem" role="status">
            {text.apps.mcp.tokenRefused(clockTime(center.tokenRefusedAt(record.id) as number).slice(0, 5))}
          </p>
        )}
      {record.kind === 'mcp_server' &&
        (center.credentialKind(record.id) === 'oauth' || center.credentialKind(record.id) === 'expired') && (
          <p className="host__app-server">
            {center.credentialKind(record.id) === 'oauth'
              ? text.apps.mcp.signedIn
              : text.apps.mcp.signInExpired}{' '}
            {center.credentialKind(record.id) === 'expired' && (
              <button
                type="button"
                disabled={running}
                aria-label={text.apps.named(text.apps.mcp.signInAgain, name)}
                onClick={() => void center.signInMcpServer(record.manifest.server.url, undefined, record.id)}
              >
                {text.apps.mcp.signInAgain}
              </button>
            )}{' '}
            <button
              type="button"
              disabled={running}
              aria-label={text.apps.named(text.apps.mcp.signOut, name)}
              onClick={() => void center.forgetToken(record.id)}
            >
              {text.apps.mcp.signOut}
            </button>
          </p>
        )}
      <div className="host__app-integrity">
        {manifest.integrity === undefined ? (
          text.apps.unverified
        ) : (
          <>
            {text.apps.verified(manifest.files?.length ?? 0)}{' '}
            <code title={manifest.integrity}>{manifest.integrity.slice(0, 19)}…</code>
          </>
        )}
      </div>
      {record.previous !== undefined && (
        <p className="host__app-pending">
          {text.apps.pending(record.previous.manifest.version, manifest.version)}
        </p>
      )}
      {app.refused !== undefined && (
        <p className="host__app-refused">
          {text.apps.refused(new Date(app.refused.at).toLocaleString(text.locale))}{' '}
          <code>{app.refused.detail ?? app.refused.type}</code>
        </p>
      )}
      {app.rolledBack !== undefined && (
        <p className="host__app-rolled-back">
          {text.apps.rolledBack(new Date(app.rolledBack.at).toLocaleString(text.locale))}{' '}
          <code>{app.rolledBack.detail ?? app.rolledBack.type}</code>
        </p>
      )}
      {app.picked && <p className="host__app-hint">{text.apps.picked}</p>}
      <div className="host__app-actions">
        <button
          type="button"
          disabled={running}
          aria-label={text.apps.named(
            record.enabled ? text.apps.actions.disable : text.apps.actions.enable,
            name,
          )}
          onClick={() => void center.setEnabled(record.id, !record.enabled)}
        >
          {record.enabled ? text.apps.actions.disable : text.apps.actions.enable}
        </button>
        {!app.picked && (
          <button
            type="button"
            disabled={running}
            aria-label={text.apps.named(
              record.kind === 'mcp_server' ? text.apps.mcp.refresh : text.apps.actions.update,
              name,
            )}
            onClick={() => void center.checkForUpdate(record.id)}
          >
            {record.kind === 'mcp_server' ? text.apps.mcp.refresh : text.apps.actions.update}
          </button>
        )}
        <button
          ref={uninstall}
          type="button"
          disabled={running || confirming}
          aria-label={text.apps.named(text.apps.actions.uninstall, name)}
          aria-expanded={confirming}
          onClick={() => setConfirming(true)}
        >
          {text.apps.actions.uninstall}
        </button>
      </div>
      {confirming && (
        <fieldset className="host__app-confirm">
          <legend>{text.apps.confirmUninstall(name)}</legend>
          <button
            type="button"
            className="host__app-danger"
            aria-label={text.apps.named(text.apps.confirm, name)}
            onClick={() => {
              setConfirming(false);
              // The item goes with the app: the focus goes to the panel's heading rather than to the page.
              void center.uninstall(record.id).then(() => {
                if (!center.snapshot.apps.some((item) => item.record.id === record.id))
                  document.getElementById('apps-title')?.focus();
              });
            }}
          >
            {text.apps.confirm}
          </button>
          <button
            ref={keep}
            type="button"
            aria-label={text.apps.named(text.apps.keep, name)}
            onClick={() => setConfirming(false)}
          >
            {text.apps.keep}
          </button>
        </fieldset>
      )}
      <ActionStatus state={action} version={manifest.version} />
      <h3 className="host__app-section">{text.apps.toolsTitle}</h3>
      {manifest.tools.length === 0 ? (
        <p className="host__app-none">{text.apps.noTools}</p>
      ) : (
        <ul className="host__tools" aria-label={text.apps.tools(name)}>
          {manifest.tools.map((tool) => (
            <ToolItem
              key={tool.method}
              tool={tool}
              agentOnly={
                record.kind === 'mcp_server' && record.manifest.agent_only.includes(tool.executor.tool ?? '')
              }
            >
              <HeldChange center={center} record={record} tool={tool} />
              <ToolPolicyControl center={center} record={record} tool={tool} />
            </ToolItem>
          ))}
        </ul>
      )}
      {record.kind === 'mcp_server' && <ServerTrust center={center} record={record} />}
      <GrantList center={center} name={name} grants={app.grants} />
      {record.kind === 'mcp_server' ? (
        <McpServerParts name={name} record={record} center={center} />
      ) : (
        <>
          <PageNetwork name={name} record={record} center={center} />
          <h3 className="host__app-section">{text.apps.surfacesTitle}</h3>
          {record.manifest.surfaces.length === 0 ? (
            <p className="host__app-none">{text.apps.noSurfaces}</p>
          ) : (
            <ul className="host__tools" aria-label={text.apps.surfaces(name)}>
              {record.manifest.surfaces.map((surface) => (
                <li key={surface.id}>
                  <code>{surface.id}</code>{' '}
                  <span className="host__tool-meta">{text.apps.events(surface.events)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <details className="host__app-audit">
        <summary>{text.apps.auditTitle(app.audit.length)}</summary>
        {app.audit.length === 0 ? (
          <p className="host__app-none">{text.apps.noAudit}</p>
        ) : (
          <ol aria-label={text.apps.audit(name)}>
            {app.audit.map((entry) => (
              <li key={entry.id ?? entry.at} className="host__app-audit-entry">
                <time dateTime={new Date(entry.at).toISOString()}>
                  {new Date(entry.at).toLocaleString(text.locale)}
                </time>{' '}
                <strong>{Object.hasOwn(audit, entry.type) ? audit[entry.type] : entry.type}</strong>{' '}
                <code>{entry.type}</code>
                {entry.version !== '' && <> {entry.version}</>}
                {entry.detail !== undefined && (
                  <span className="host__app-audit-detail"> {entry.detail}</span>
                )}
              </li>
            ))}
          </ol>
        )}
      </details>
    </li>
  );
}
