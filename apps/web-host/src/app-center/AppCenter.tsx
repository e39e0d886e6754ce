/**
 * The app center, in the side column where the MiniApps panel was: the installed MiniApps (size, integrity,
 * enabled state, Agent Tools, Surfaces, audit log) with their actions, the bundled apps not installed, and installing
 * from a URL on this site or a picked folder. It only renders: `app-center.ts` runs the actions and says what to show.
 */
import {
  type AgentToolDescriptor,
  type McpServerManifest,
  mcpViewAsksForMore,
} from '@lineup/shared/protocol';
import {
  type FormEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { type HostText, useText } from '../i18n.tsx';
import { useRuntime } from '../runtime.tsx';
import {
  type ActionState,
  type AppAction,
  type AppCenter as AppCenterModel,
  type AppCenterResult,
  formatBytes,
  type InstalledApp,
} from './app-center.ts';
import {
  GrantList,
  HeldChange,
  ServerTrust,
  ToolDescription,
  ToolPolicyControl,
} from './ConsentSettings.tsx';
import type { CatalogueEntry } from './catalogue.ts';
import type { AppCenterProblem } from './problems.ts';

export function AppCenter() {
  const state = useRuntime();
  const text = useText();
  return (
    <aside className="host__apps" aria-labelledby="apps-title">
      <h2 id="apps-title" tabIndex={-1}>
        {text.apps.title}
      </h2>
      {state.status === 'loading' && (
        <p className="host__empty" role="status">
          {text.apps.starting}
        </p>
      )}
      {state.status === 'error' && <p role="alert">{state.message}</p>}
      {state.status === 'ready' && <AppCenterView center={state.appCenter} />}
    </aside>
  );
}

function AppCenterView({ center }: { readonly center: AppCenterModel }) {
  const text = useText();
  const snapshot = useSyncExternalStore(
    (listener) => center.subscribe(listener),
    () => center.snapshot,
    () => center.snapshot,
  );
  return (
    <>
      {snapshot.startupProblems.map(({ bundleUrl, problem }) => (
        <div key={bundleUrl} className="host__app-problem" role="alert">
          <p>{text.apps.startup(bundleUrl, text.apps.problem(problem))}</p>
          <ProblemDetails problem={problem} />
        </div>
      ))}
      {snapshot.readProblem !== undefined && (
        <p className="host__app-problem" role="alert">
          {text.apps.problem(snapshot.readProblem)}
        </p>
      )}
      {snapshot.devUrl !== null && <DevStatus url={snapshot.devUrl} state={snapshot.dev} />}
      {snapshot.apps.length === 0 && <p className="host__empty">{text.apps.none}</p>}
      <ul className="host__app-list" aria-label={text.apps.installedList}>
        {snapshot.apps.map((app) => (
          <InstalledAppItem
            key={app.record.id}
            center={center}
            app={app}
            action={snapshot.actions.get(app.record.id)}
          />
        ))}
      </ul>
      {snapshot.available.length > 0 && (
        <Catalogue center={center} entries={snapshot.available} actions={snapshot.actions} />
      )}
      <InstallForm center={center} url={snapshot.url} folder={snapshot.folder} />
      <McpInstallForm center={center} state={snapshot.mcp} />
      {snapshot.inventory !== undefined && (
        <p className="host__inventory">
          {text.apps.inventory} <code>{snapshot.inventory.revision}</code>,{' '}
          {text.apps.toolCount(snapshot.inventory.tools?.length ?? 0)}
        </p>
      )}
    </>
  );
}

function InstalledAppItem({
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
        <McpServerParts name={name} manifest={record.manifest} />
      ) : (
        <>
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

/** An MCP server's views (what each declared it needs, and that it gets none of it) and its view-only tools. */
function McpServerParts({ name, manifest }: { readonly name: string; readonly manifest: McpServerManifest }) {
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

function ToolItem({
  tool,
  agentOnly = false,
  children,
}: {
  readonly tool: AgentToolDescriptor;
  /** An MCP tool its views may not call. */
  readonly agentOnly?: boolean;
  /** The tool's consent setting. */
  readonly children?: ReactNode;
}) {
  const text = useText();
  return (
    <li>
      <code>
        {tool.app_scope}.{tool.method}
      </code>{' '}
      <span className="host__tool-meta">
        {text.apps.callModels[tool.call_model]} · {text.apps.activations[tool.activation]}
        {tool.risk !== undefined && <> · {text.apps.risk(tool.risk)}</>}
        {agentOnly && <> · {text.apps.mcp.agentOnly}</>}
      </span>
      <details className="host__tool-description">
        <summary>{text.apps.description}</summary>
        <ToolDescription description={tool.description} />
      </details>
      {children}
    </li>
  );
}

function Catalogue({
  center,
  entries,
  actions,
}: {
  readonly center: AppCenterModel;
  readonly entries: readonly CatalogueEntry[];
  readonly actions: ReadonlyMap<string, ActionState>;
}) {
  const text = useText();
  const id = useId();
  return (
    <section className="host__app-catalogue" aria-labelledby={id}>
      <h3 id={id}>{text.apps.catalogue}</h3>
      <ul className="host__app-list">
        {entries.map((entry) => {
          const action = actions.get(entry.id);
          return (
            <li key={entry.id} className="host__app host__app--available">
              <div className="host__app-head">
                <strong>{entry.name}</strong>
                <span className="host__app-state">{text.apps.notInstalled}</span>
                <button
                  type="button"
                  className="host__app-install"
                  disabled={action?.status === 'running'}
                  aria-label={text.apps.named(text.apps.actions.install, entry.name)}
                  onClick={() => void center.installFromCatalogue(entry)}
                >
                  {text.apps.actions.install}
                </button>
              </div>
              <ActionStatus state={action} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The MiniApp in development this page follows (`?dev=`): where from, and its last install. */
function DevStatus({ url, state }: { readonly url: string; readonly state: ActionState }) {
  const text = useText();
  const id = useId();
  return (
    <section className="host__app-dev" aria-labelledby={id}>
      <h3 id={id}>{text.apps.dev.title}</h3>
      <p>
        {text.apps.dev.following} <code>{url}</code>
      </p>
      <p className="host__app-hint">{text.apps.dev.hint}</p>
      <ActionStatus state={state} />
    </section>
  );
}

function InstallForm({
  center,
  url,
  folder,
}: {
  readonly center: AppCenterModel;
  readonly url: ActionState;
  readonly folder: ActionState;
}) {
  const text = useText();
  const id = useId();
  const [address, setAddress] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void center.installFromUrl(address);
  };
  return (
    <section className="host__app-install-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{text.apps.install}</h3>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-url`}>{text.apps.urlLabel}</label>
        <div className="host__app-install-row">
          <input
            id={`${id}-url`}
            type="text"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            placeholder="/apps/notes/"
            value={address}
            aria-describedby={`${id}-url-hint`}
            onChange={(event) => setAddress(event.target.value)}
          />
          <button type="submit" disabled={url.status === 'running'}>
            {text.apps.urlInstall}
          </button>
        </div>
        <p id={`${id}-url-hint`} className="host__app-hint">
          {text.apps.urlHint}
        </p>
        <ActionStatus state={url} />
      </form>
      <div className="host__app-folder">
        <label id={`${id}-folder-label`} htmlFor={`${id}-folder`}>
          {text.apps.folderLabel}
        </label>
        <div className="host__app-pick">
          {/* The browser's own file button speaks the browser's language ("Choose Files", "No file chosen"),
              not the page's: the input stays for keyboard and assistive technology, unseen, and a label in the
              page's language stands where its button was. */}
          <input
            id={`${id}-folder`}
            className="host__visually-hidden"
            type="file"
            multiple
            // React has no prop for it; the attribute makes the chooser pick a folder (Chromium, Firefox, Safari).
            {...{ webkitdirectory: '' }}
            disabled={folder.status === 'running'}
            // Named by the field's label alone, not also by the button's text below.
            aria-labelledby={`${id}-folder-label`}
            aria-describedby={`${id}-folder-hint`}
            onChange={(event) => {
              const input = event.currentTarget;
              const files = [...(input.files ?? [])];
              // Picking the same folder again (after changing it) is a new install attempt.
              input.value = '';
              void center.installFromFolder(files);
            }}
          />
          <label htmlFor={`${id}-folder`} className="host__app-pick-button" aria-hidden="true">
            {text.apps.folderChoose}
          </label>
        </div>
        <p id={`${id}-folder-hint`} className="host__app-hint">
          {text.apps.folderHint}
        </p>
        <ActionStatus state={folder} />
      </div>
    </section>
  );
}

/** Adding an MCP server by its Streamable HTTP URL, under an app scope of the user's when one is given. */
function McpInstallForm({ center, state }: { readonly center: AppCenterModel; readonly state: ActionState }) {
  const text = useText();
  const id = useId();
  const [address, setAddress] = useState('');
  const [scope, setScope] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void center.installMcpServer(address, scope);
  };
  return (
    <section className="host__app-install-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{text.apps.mcp.install}</h3>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-url`}>{text.apps.mcp.urlLabel}</label>
        <div className="host__app-install-row">
          <input
            id={`${id}-url`}
            type="text"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            placeholder="http://localhost:3001/mcp"
            value={address}
            aria-describedby={`${id}-url-hint`}
            onChange={(event) => setAddress(event.target.value)}
          />
        </div>
        <p id={`${id}-url-hint`} className="host__app-hint">
          {text.apps.mcp.urlHint}
        </p>
        <label htmlFor={`${id}-scope`}>{text.apps.mcp.scopeLabel}</label>
        <div className="host__app-install-row">
          <input
            id={`${id}-scope`}
            type="text"
            spellCheck={false}
            autoComplete="off"
            value={scope}
            aria-describedby={`${id}-scope-hint`}
            onChange={(event) => setScope(event.target.value)}
          />
          <button type="submit" disabled={state.status === 'running'}>
            {text.apps.mcp.add}
          </button>
        </div>
        <p id={`${id}-scope-hint`} className="host__app-hint">
          {text.apps.mcp.scopeHint}
        </p>
        <ActionStatus state={state} />
      </form>
    </section>
  );
}

/** What an action is doing or did: a polite status while it runs or when it worked, an alert when it did not. */
function ActionStatus({
  state,
  version,
}: {
  readonly state: ActionState | undefined;
  /** The installed version: an update's result no longer shows once another version is back (a rollback). */
  readonly version?: string;
}) {
  const text = useText();
  if (
    state?.status === 'done' &&
    state.result.kind === 'updated' &&
    version !== undefined &&
    version !== state.result.to
  )
    return <p className="host__app-status" role="status" />;
  return (
    <>
      <p className="host__app-status" role="status">
        {state?.status === 'running' && text.apps.running[state.action]}
        {state?.status === 'done' && resultText(text, state.action, state.result)}
      </p>
      {state?.status === 'failed' && (
        <div className="host__app-problem" role="alert">
          <p>{text.apps.joined(text.apps.failed[state.action], text.apps.problem(state.problem))}</p>
          <ProblemDetails problem={state.problem} />
        </div>
      )}
    </>
  );
}

function resultText(text: HostText, action: AppAction, result: AppCenterResult): string {
  const words = text.apps.results;
  switch (result.kind) {
    case 'installed':
      return words.installed(result.name, result.version);
    case 'replaced':
      return words.replaced(result.name, result.version);
    case 'updated':
      return result.change === undefined
        ? words.updated(result.name, result.from, result.to)
        : `${words.refreshed(result.name, result.from, result.to)} ${text.apps.mcp.changes(
            result.change.addedTools.length,
            result.change.removedTools.length,
            result.change.changedTools.length,
            result.change.changedViews.length,
          )}`;
    case 'unchanged':
      return action === 'update'
        ? words.upToDate(result.name, result.version)
        : words.unchanged(result.name, result.version);
    case 'enabled':
      return words.enabled(result.name);
    case 'disabled':
      return words.disabled(result.name);
    case 'uninstalled':
      return words.uninstalled(result.name);
  }
}

/**
 * An invalid manifest's issues, each with where it is. (A refused file needs nothing more: its sentence names the
 * file and both digests.)
 */
function ProblemDetails({ problem }: { readonly problem: AppCenterProblem }) {
  if (problem.kind === 'protocol')
    return (
      <ul className="host__app-issues">
        {problem.issues.map((issue) => (
          <li key={`${issue.path} ${issue.code}`}>
            <code>{issue.path || '/'}</code> {issue.message}
          </li>
        ))}
      </ul>
    );
  if (problem.kind === 'dev_build_failed')
    return (
      // Its own words, lines kept (the build's message is in English, as the terminal's).
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a long message scrolls; the keyboard must reach it.
      <pre className="host__app-build-message" lang="en" tabIndex={0}>
        {problem.message}
      </pre>
    );
  return null;
}
