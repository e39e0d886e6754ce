/**
 * The view of an installed MCP server beside an agent's call of its tool (flow: DESIGN.md "MCP servers and MCP
 * Apps"). The view is the server's `ui://` resource as it was kept at install — read from the runtime's verified
 * files, never fetched — mounted by `@lineup/surface-host` in a contained Surface frame (no network, whatever it
 * declared), with the MCP Apps SDK's own `AppBridge` as the host end over the frame's port:
 *
 * - `ui/initialize` gets the host context: the theme and the host's style variables (light or dark, and again when
 *   it changes), the user's language, the inline display mode and the room the view has; then the call's
 *   `tool-input`, and its `tool-result` (the server's whole result) once the runtime finished the call — or
 *   `tool-cancelled` when it ended without one.
 * - What the view asks for goes through the seeds' gates: `tools/call` is a local UI action of the runtime
 *   (`mcpViewCall`: only its own server's tools that views may call, arguments checked, audited); `ui/open-link` is
 *   the host's `app.open_url` capability, with its consent; `ui/message` goes into the message box and becomes the
 *   user's turn only if the user sends it; `ui/notifications/size-changed` resizes the frame. Anything else is
 *   answered by the bridge with a JSON-RPC error (method not found), never silence.
 * - A view prepared ahead for this tool (`PreparedMcpViews`, mcp-views.ts) is moved here and used, already
 *   initialized with the same host context; its requests that waited go on under this call's identity.
 * - Closing the view (its close button, or the entry going away) asks it to tear down, then removes the frame.
 * - Its state — its `localStorage` — is kept per conversation and call among the runtime's view states and given back
 *   when the call's view is shown again (after a reload too); a call with kept state never takes a prepared view,
 *   which starts empty. It is never sent to the agent.
 */
import type { CapabilityRecord } from '@lineup/runtime';
import { type McpViewStorage, McpViewStorageSchema } from '@lineup/shared/bridge';
import {
  type McpViewDeclarations,
  mcpViewAsksForMore,
  mcpViewConnectSource,
  mcpViewConnectSourceProblem,
  mcpViewGrantedDevices,
  mcpViewGrantedResources,
  mcpViewGrantedSources,
  mcpViewResourceSourceProblem,
} from '@lineup/shared/protocol';
import { useEffect, useRef, useState } from 'react';
import { useLanguage, useText } from '../i18n/LanguageProvider.tsx';
import { useRuntime } from '../runtime.tsx';
import type { HostRuntime } from '../workspace/host-runtime.ts';
import { proposeDraft } from './drafts.ts';
import { installedViewKey, McpViewSession, readMcpViewSource } from './mcp-views.ts';
import type { Entry } from './model.ts';
import { ViewFullscreen } from './view-fullscreen.ts';

type ViewEntry = Extract<Entry, { kind: 'mcp_view' }>;

/** What a kept view state holds: the view's storage, or nothing usable. */
function keptStorage(state: unknown): McpViewStorage | undefined {
  const storage = (state as { storage?: unknown } | null | undefined)?.storage;
  const checked = McpViewStorageSchema.safeParse(storage);
  return checked.success ? checked.data : undefined;
}

/**
 * Each view's storage as it last saved it in this page, newest last (at most `LATEST_KEPT`): a view shown again in
 * the same page starts from it, not from what its conversation read when it opened.
 */
const latestStorage = new Map<string, McpViewStorage>();
const LATEST_KEPT = 64;
function rememberStorage(key: string, entries: McpViewStorage): void {
  latestStorage.delete(key);
  latestStorage.set(key, entries);
  for (const old of latestStorage.keys()) {
    if (latestStorage.size <= LATEST_KEPT) break;
    latestStorage.delete(old);
  }
}

/** A view's instance id: the channel's pattern, unique per call. */
function instanceIdOf(entry: ViewEntry): string {
  return `mcp.${entry.callId}`.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 128);
}

export function McpViewEntry({
  entry,
  onClose,
  savedState,
  onStateChange,
}: {
  readonly entry: ViewEntry;
  readonly onClose: () => void;
  /** The view state kept for this call (`{ storage }`), as its conversation read it. */
  readonly savedState?: unknown;
  /** Keeps the view's state for this call. */
  readonly onStateChange?: (state: unknown) => void;
}) {
  const runtime = useRuntime();
  const text = useText();
  const { language } = useLanguage();
  const slot = useRef<HTMLDivElement>(null);
  const card = useRef<HTMLDivElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const fullSlot = useRef<HTMLDivElement>(null);
  const [fullscreen, setFullscreen] = useState(false);
  /** The view's display mode (view-fullscreen.ts), once it is shown. */
  const display = useRef<ViewFullscreen | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [asksForMore, setAsksForMore] = useState(false);
  /** The view shown, and whether it has had its input and result. */
  const live = useRef<{ readonly session: McpViewSession; initialized: boolean; resultSent: boolean } | null>(
    null,
  );
  const entryRef = useRef(entry);
  entryRef.current = entry;
  const languageRef = useRef(language);
  languageRef.current = language;
  /** The user closes the view (or it asked to be closed): what it told the agent and was not sent goes with it. */
  const closeByUser = () => {
    if (runtime.status === 'ready') runtime.mcpViews.contexts.forget(entry.conversationId, entry.callId);
    onClose();
  };
  const closeRef = useRef(closeByUser);
  closeRef.current = closeByUser;
  const saveRef = useRef(onStateChange);
  saveRef.current = onStateChange;
  const storageKey = `${entry.conversationId}\n${entry.callId}`;
  const storageRef = useRef<McpViewStorage | undefined>(undefined);
  storageRef.current = latestStorage.get(storageKey) ?? keptStorage(savedState);

  // The result of the call, once the runtime finished it: the server's whole result, or a cancellation.
  const deliverResult = useRef(async () => {});
  deliverResult.current = async () => {
    const current = live.current;
    const final = entryRef.current.final;
    if (current === null || !current.initialized || current.resultSent || final === undefined) return;
    if (runtime.status !== 'ready') return;
    current.resultSent = true;
    const call = await runtime.host.runtime.mcpCall(entry.conversationId, entry.callId);
    if (call?.result !== undefined) await current.session.bridge.sendToolResult(call.result as never);
    else
      await current.session.bridge.sendToolCancelled({
        reason: final.error?.message ?? final.error?.code ?? 'The call ended without a result.',
      });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: one view per call; its entry's later changes (the result) are delivered apart.
  useEffect(() => {
    if (runtime.status !== 'ready') return;
    let active = true;
    let session: McpViewSession | null = null;
    const { registry, host, capabilities, mcpViews } = runtime;
    /** Binds the view shown to this call: its requests, its input and result, and a view ready for the next. */
    const begin = (
      opened: McpViewSession,
      server: string,
      declared: McpViewDeclarations,
      granted: {
        readonly connect: readonly string[];
        readonly resources: readonly string[];
        readonly devices: readonly string[];
      },
    ) => {
      session = opened;
      // What it declared beyond what it was granted: a view granted all it asked for runs as it asked.
      setAsksForMore(
        mcpViewAsksForMore({
          ...declared,
          connect_domains: declared.connect_domains.filter(
            (domain) =>
              mcpViewConnectSourceProblem(domain) !== undefined ||
              !granted.connect.includes(mcpViewConnectSource(domain)),
          ),
          resource_domains: declared.resource_domains.filter(
            (domain) =>
              mcpViewResourceSourceProblem(domain) !== undefined ||
              !granted.resources.includes(mcpViewConnectSource(domain)),
          ),
          geolocation: declared.geolocation && !granted.devices.includes('geolocation'),
          clipboard_write: declared.clipboard_write && !granted.devices.includes('clipboard-write'),
        }),
      );
      const state = { session: opened, initialized: false, resultSent: false };
      const modes = new ViewFullscreen(
        opened,
        () =>
          dialog.current === null ||
          fullSlot.current === null ||
          slot.current === null ||
          card.current === null
            ? null
            : {
                dialog: dialog.current,
                fullSlot: fullSlot.current,
                inlineSlot: slot.current,
                card: card.current,
              },
        (value) => {
          if (active) setFullscreen(value);
        },
      );
      display.current = modes;
      live.current = state;
      // The view acts for its call only once the user allowed the call: before, it gets no input, and what it asks
      // for waits (a refused call's view is refused everything it asks).
      const allowed = allowedToRun(host, entry.conversationId, entry.callId, () => !active);
      opened.bind({
        callTool: async (params) => {
          if (!(await allowed))
            throw new Error('permission_denied: The call that opened this view did not run.');
          const answer = await host.runtime.mcpViewCall({
            conversationId: entry.conversationId,
            appId: entry.appId,
            tool: params.name,
            arguments: params.arguments ?? {},
          });
          if (answer.status === 'ok') return answer.result;
          throw new Error(`${answer.code}: ${answer.message}`);
        },
        openLink: (url) =>
          viewCapability(
            capabilities,
            registry,
            'app.open_url',
            { url },
            {
              conversationId: entry.conversationId,
              server,
              reason: url,
              operationId: `view:${entry.callId}:${crypto.randomUUID()}`,
            },
          ),
        downloadFile: (args) =>
          viewCapability(capabilities, registry, 'artifact.save', args, {
            conversationId: entry.conversationId,
            server,
            reason: args.filename,
            operationId: `view:${entry.callId}:${crypto.randomUUID()}`,
          }),
        message: (words) => proposeDraft({ text: words, from: server }),
        close: () => {
          if (active) closeRef.current();
        },
        // Full screen, when it asks; Escape in it (or the bar's button) brings it back.
        displayMode: (mode) => modes.request(mode),
        escape: () => modes.exit(),
        // What it tells the agent about itself: waits for the user's next turn (at most one context per view).
        updateContext: (update) =>
          mcpViews.contexts.update(
            { conversationId: entry.conversationId, callId: entry.callId, tool: entry.tool, server },
            update,
          ),
        // The view's state: kept for this call, given back when the view is shown again (also after a reload).
        saveStorage: (entries) => {
          rememberStorage(storageKey, entries);
          saveRef.current?.({ storage: entries });
        },
      });
      void opened.initialized
        .then(async () => {
          if (!active) return;
          // The call's input only once the user allowed the call (its consent): a refused call's view never sees
          // what the agent asked; it gets the cancellation with the call's end.
          const ran = await allowed;
          if (!active) return;
          state.initialized = true;
          if (ran) await opened.bridge.sendToolInput({ arguments: { ...entry.arguments } });
          await deliverResult.current();
        })
        .catch(() => {});
      // The next call of this tool finds a view ready.
      mcpViews.prepareSoon(entry.appId, entry.viewId, entry.serverTool);
    };
    // A view prepared ahead for this tool of the server as it is now installed shows at once, already drawn: it
    // was made from the same verified files (another version has another key).
    const app = host.apps.find((record) => record.id === entry.appId);
    const kept =
      app?.kind === 'mcp_server' && app.enabled
        ? app.manifest.views.find((candidate) => candidate.id === entry.viewId)
        : undefined;
    const container = slot.current;
    // A view prepared ahead starts with no storage: one this call kept state for is mounted with it instead.
    const storage = storageRef.current;
    const prepared =
      app?.kind === 'mcp_server' && kept !== undefined && container !== null && (storage?.length ?? 0) === 0
        ? mcpViews.take(installedViewKey(app, kept, entry.serverTool))
        : undefined;
    if (prepared !== undefined && container !== null && app !== undefined && kept !== undefined) {
      mcpViews.setWidth(container.clientWidth);
      prepared.show(container);
      begin(prepared, app.manifest.name, kept.declared, {
        connect: mcpViewGrantedSources(kept.declared, app.consent?.network?.[kept.id]),
        resources: mcpViewGrantedResources(kept.declared, app.consent?.network?.[kept.id]),
        devices: mcpViewGrantedDevices(kept.declared, app.consent?.network?.[kept.id]),
      });
    }
    // Otherwise the view is read from the verified files and mounted here.
    else
      readMcpViewSource(registry, entry.appId, entry.viewId, entry.serverTool)
        .then((source) => {
          if (!active || slot.current === null) return;
          mcpViews.setWidth(slot.current.clientWidth);
          const opened = McpViewSession.open(
            slot.current,
            source,
            {
              language: languageRef.current,
              width: slot.current.clientWidth,
              log: mcpViews.log,
              ...(storage === undefined ? {} : { storage }),
            },
            instanceIdOf(entry),
          ) as McpViewSession;
          begin(opened, source.manifest.name, source.view.declared, {
            connect: source.connectDomains,
            resources: source.resourceDomains,
            devices: source.devices,
          });
        })
        .catch((error: unknown) => {
          if (active) setProblem(error instanceof Error ? error.message : String(error));
        });
    return () => {
      active = false;
      live.current = null;
      display.current?.exit();
      display.current = null;
      // Asks the view to tear down (a bounded wait), then removes its frame.
      session?.close();
    };
  }, [runtime, entry.appId, entry.viewId, entry.callId]);

  // The call finished after the view opened: the view hears its result now.
  useEffect(() => {
    if (entry.final !== undefined) void deliverResult.current().catch(() => {});
  }, [entry.final]);

  // The user's language changed: the view hears it.
  useEffect(() => {
    live.current?.session.setLanguage(language);
  }, [language]);

  // `prefersBorder: false` (its resource's `_meta.ui`): no card border around the view; the host's bar stays.
  const server =
    runtime.status === 'ready' ? runtime.host.apps.find((record) => record.id === entry.appId) : undefined;
  const borderless =
    server?.kind === 'mcp_server' &&
    server.manifest.views.find((view) => view.id === entry.viewId)?.prefers_border === false;
  return (
    <div
      ref={card}
      tabIndex={-1}
      className={`host__surface host__mcp-view${borderless ? ' host__mcp-view--borderless' : ''}`}
    >
      <div className="host__surface-bar">
        <span>{text.mcpView.title(entry.label, entry.serverTool)}</span>
        <button type="button" aria-label={text.mcpView.close(entry.label)} onClick={closeByUser}>
          {text.workspace.close}
        </button>
      </div>
      {asksForMore && <p className="host__mcp-view-note">{text.mcpView.asksFor}</p>}
      {problem !== null && (
        <p className="host__surface-problem" role="alert">
          {text.mcpView.unavailable(problem)}
        </p>
      )}
      <div ref={slot} />
      {fullscreen && <p className="host__mcp-view-note">{text.mcpView.shownFullscreen}</p>}
      <dialog
        ref={dialog}
        className="host__mcp-fullscreen"
        aria-label={text.mcpView.fullscreen(entry.label, entry.serverTool)}
      >
        <div className="host__surface-bar">
          <span>{text.mcpView.title(entry.label, entry.serverTool)}</span>
          <button type="button" onClick={() => display.current?.exit()}>
            {text.mcpView.exitFullscreen}
          </button>
        </div>
        <div ref={fullSlot} className="host__mcp-fullscreen-slot" />
      </dialog>
    </div>
  );
}

/**
 * Runs the host capability `name` for a view (its open-link, its download), after the user's consent as the view's
 * question ("A view of … asks to use a capability", `reason` shown as what it asks for). True when it ran.
 */
async function viewCapability(
  capabilities: Extract<ReturnType<typeof useRuntime>, { status: 'ready' }>['capabilities'],
  registry: Extract<ReturnType<typeof useRuntime>, { status: 'ready' }>['registry'],
  name: string,
  args: Readonly<Record<string, unknown>>,
  request: {
    readonly conversationId: string;
    readonly server: string;
    readonly reason: string;
    readonly operationId: string;
  },
): Promise<boolean> {
  const capability: CapabilityRecord | undefined = (await registry.capabilities()).find(
    (candidate) => candidate.name === name && !candidate.revoked,
  );
  if (capability === undefined) return false;
  const consent = await capabilities.consentForView(
    {
      conversationId: request.conversationId,
      operationId: request.operationId,
      server: request.server,
      reason: request.reason,
      arguments: { ...args },
    },
    capability,
  );
  if (consent !== 'allowed' && consent !== 'remembered' && consent !== 'not_needed') return false;
  const outcome = await capabilities.executeForAction(
    capability,
    { ...args },
    {
      conversationId: request.conversationId,
      operationId: request.operationId,
    },
  );
  return outcome.ok;
}

/**
 * Waits while the call waits for the user's consent; true once it was allowed (it runs or ran), false when it ended
 * without running (refused, dismissed, timed out) or is unknown.
 */
async function allowedToRun(
  host: HostRuntime,
  conversationId: string,
  callId: string,
  gone: () => boolean,
): Promise<boolean> {
  for (;;) {
    let changed = () => {};
    const next = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const unsubscribe = host.onConsentChanged((conversation, call) => {
      if (conversation === conversationId && call === callId) changed();
    });
    try {
      const call = await host.runtime.mcpCall(conversationId, callId);
      if (gone() || call === undefined) return false;
      if (call.stage !== 'awaiting_consent')
        return !(call.stage === 'finished' && call.result === undefined && call.final?.outcome === 'error');
      await next;
    } finally {
      unsubscribe();
    }
  }
}
