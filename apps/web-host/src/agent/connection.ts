/**
 * The host's agent connection: `@lineup/runtime`'s `AgentClient` over a transport, wired to the host side of the
 * runtime (tool calls in, outbox rows out) and to the views (documents, checkpoints, Surfaces, chat, the message
 * log). Framework-free; the conversation view attaches itself as `view`.
 *
 * Without a remote agent (`?agent=ws://…`, `LINEUP_AGENT_URL`), the transport is in process and the built-in demo
 * agent (`@lineup/scripted-agent`, deterministic, English and Chinese) sits at its far end; the conversation's
 * message box sends from that end too, so a pasted `lineup.v1` message takes exactly the path of an agent's.
 * A remote agent from a page link is held — nothing dialled, nothing sent — until the user allows it
 * (`agent-link.ts`); one the user declined, or a link refused by a rule, leaves the page with no agent at all.
 *
 * Conversations are kept in the runtime database (`ConversationStore`, the client's journal): the page opens the
 * latest one again, and the user can start a new one or go back to an earlier one.
 */

import {
  type ActionAnswerReceiver,
  AgentClient,
  type AgentClientHandlers,
  type AgentClientSendResult,
  type AgentConnectionStatus,
  type AgentTransport,
  type AppRegistry,
  type CapabilityCallReceiver,
  type ConversationStore,
  createInProcessTransport,
  createWebSocketTransport,
  type InProcessAgentEnd,
  type WebSocketLike,
} from '@lineup/runtime';
import { createScriptedAgent } from '@lineup/scripted-agent';
import {
  LINEUP_CONNECTION_REFUSALS,
  type LineUpMessage,
  type LineUpPayloadOf,
  type ViewContext,
} from '@lineup/shared/protocol';
import { checkSurfaceBundle } from '@lineup/surface-host';
import type { HostRuntime } from '../workspace/host-runtime.ts';
import { AgentLinkGate, planAgent, RememberedAgents } from './agent-link.ts';
import { pageStorage, profileClientId } from './client-id.ts';

/** One envelope of the message log: what the client received (after dedupe) or sent, and when. */
export interface LoggedMessage {
  readonly direction: 'in' | 'out';
  readonly message: LineUpMessage;
  /** Unix milliseconds. */
  readonly at: number;
}

/** What the views do with the connection's events. */
export type ConnectionView = Omit<AgentClientHandlers, 'appCall' | 'statusChanged'>;

/** How long `stop` waits for the agent's socket to close (the closing handshake) before it resolves anyway (ms). */
const STOP_CLOSE_WAIT_MS = 2_000;

/** Where this browser remembers the conversation it showed last (a reload opens it again). */
const SHOWN_CONVERSATION_KEY = 'lineup-host-conversation';

export function rememberShownConversation(conversationId: string): void {
  try {
    localStorage.setItem(SHOWN_CONVERSATION_KEY, conversationId);
  } catch {
    // Storage refused (a private mode): the latest conversation opens instead.
  }
}

/** The conversation shown last in this browser, if it is still stored; else the latest one, else a new one. */
export async function conversationToShow(store: ConversationStore): Promise<string> {
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(SHOWN_CONVERSATION_KEY);
  } catch {
    remembered = null;
  }
  if (
    remembered !== null &&
    /^[\x21-\x7e]{1,128}$/.test(remembered) &&
    (await store.get(remembered)) !== undefined
  )
    return remembered;
  const [latest] = await store.list({ limit: 1 });
  return (latest ?? (await store.create())).id;
}

/**
 * This page's decision about its agent: `?agent=ws://…` in the page URL (asked for unless its origin is
 * remembered in this browser), else the build's `LINEUP_AGENT_URL`, else the demo agent (`agent-link.ts`).
 */
export function pageAgentGate(location?: Pick<Location, 'search'>): AgentLinkGate {
  // Rendered outside a browser (a server render, a unit test) there is no page link to read and nothing to dial.
  if (typeof window === 'undefined') return new AgentLinkGate({ kind: 'demo' }, new RememberedAgents(null));
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    // Storage refused (a sandboxed or private context): nothing is remembered beyond this page.
  }
  const remembered = new RememberedAgents(storage);
  let framed = true;
  try {
    framed = window.top !== window.self;
  } catch {
    // A cross-origin parent can throw here: the page is framed.
  }
  const plan = planAgent({
    search: (location ?? window.location).search,
    configured: import.meta.env.LINEUP_AGENT_URL as string | undefined,
    remembered: (origin) => remembered.has(origin),
    framed,
  });
  return new AgentLinkGate(plan, remembered);
}

/** Which agent an `AgentConnection` talks to. */
export type AgentEndpoint =
  /** The built-in demo agent at the far end of an in-process transport. */
  | { readonly kind: 'demo' }
  /** A remote agent over a WebSocket; `held`, nothing is dialled until `release()`. */
  | { readonly kind: 'remote'; readonly url: string; readonly held: boolean }
  /** No agent: nothing is dialled, and what the user sends waits in the outbox. */
  | { readonly kind: 'none' };

const DEMO_AGENT: AgentEndpoint = { kind: 'demo' };

/** A transport for a page with no agent: it never opens, so nothing leaves the page. */
function noAgentTransport(): AgentTransport {
  return {
    connect: () => {},
    send: () => {
      throw new Error('This page is connected to no agent.');
    },
    close: () => {},
  };
}

export class AgentConnection {
  readonly client: AgentClient;
  /** The agent's end of the in-process transport (the message box sends from here); null for a remote agent. */
  readonly agent: InProcessAgentEnd | null;
  /** Whether a remote agent waits for the user's decision (`release` dials it, `decline` drops it). */
  #held: boolean;
  /** The remote agent's URL, or null with the demo agent or none. */
  #remoteUrl: string | null;
  #view: ConnectionView | null = null;
  #status: AgentConnectionStatus = 'idle';
  #stopped = false;
  /** The agent refused this device (4008, no valid device token): no retry follows. */
  #refused = false;
  /** The WebSockets this page dialled that have not closed yet. */
  readonly #sockets = new Set<WebSocket>();
  readonly #statusListeners = new Set<() => void>();
  readonly #messageListeners = new Set<(entry: LoggedMessage) => void>();
  readonly #conversationListeners = new Set<() => void>();
  /** Where conversations are kept; the views replay a conversation's records from it. */
  readonly store: ConversationStore;
  #conversationId: string;

  constructor(
    host: HostRuntime,
    registry: AppRegistry,
    store: ConversationStore,
    conversationId: string,
    endpoint: AgentEndpoint = DEMO_AGENT,
    capabilities?: CapabilityCallReceiver,
    actions?: ActionAnswerReceiver,
  ) {
    this.store = store;
    this.#conversationId = conversationId;
    let transport: AgentTransport;
    this.#held = endpoint.kind === 'remote' && endpoint.held;
    this.#remoteUrl = endpoint.kind === 'remote' ? endpoint.url : null;
    if (endpoint.kind === 'none') {
      transport = noAgentTransport();
      this.agent = null;
    } else if (endpoint.kind === 'demo') {
      const pair = createInProcessTransport();
      transport = pair.transport;
      this.agent = pair.agent;
      const demo = createScriptedAgent({
        send: (text) => pair.agent.send(text),
        schedule: (callback, delayMs) => void setTimeout(callback, delayMs),
      });
      pair.agent.onFrame((text) => demo.receive(text));
    } else {
      transport = createWebSocketTransport({
        url: endpoint.url,
        // The sockets are kept so that `stop` can wait until the agent has seen this page's connection close.
        connect: (address, protocols) => {
          const socket = new WebSocket(address, protocols);
          this.#sockets.add(socket);
          socket.addEventListener(
            'close',
            (event) => {
              this.#sockets.delete(socket);
              // The agent host refused this device's token: the transport dials no more (until a reload).
              if ((event as CloseEvent | undefined)?.code === LINEUP_CONNECTION_REFUSALS.unauthorized.code) {
                this.#refused = true;
                for (const listener of [...this.#statusListeners]) listener();
              }
            },
            { once: true },
          );
          // The DOM's handler types are narrower than the transport's seam; the transport only assigns them.
          return socket as unknown as WebSocketLike;
        },
      });
      this.agent = null;
    }
    const view = () => this.#view;
    this.client = new AgentClient({
      transport,
      // Distinct per browser profile: two users' envelope ids never look alike to an agent (client-id.ts).
      clientId: profileClientId(pageStorage()),
      inventory: () => registry.inventory(),
      tools: host,
      // A ui.open by reference opens only an enabled app's declared Surface; anything else is answered.
      surfaces: registry,
      ...(capabilities === undefined ? {} : { capabilities }),
      ...(actions === undefined ? {} : { actions }),
      journal: store,
      conversations: [conversationId],
      // Every session start: what the outbox holds goes out now, and from now on as it is written.
      onSessionStart: () => host.setAgentSink((message) => this.client.sendOutboxMessage(message)),
      handlers: {
        // The Surface host's own markup rules for an inline bundle: a bundle it would refuse is refused here, with
        // its issue, before anything records or shows it.
        check: (message) => {
          if (message.type === 'lineup.v1.ui.open' && message.payload.app !== undefined)
            checkSurfaceBundle(message.payload.app);
        },
        document: (message) => view()?.document?.(message),
        checkpoint: (message) => view()?.checkpoint?.(message),
        surfaceOpen: (message) => view()?.surfaceOpen?.(message),
        surfacePatch: (message) => view()?.surfacePatch?.(message),
        surfaceClose: (message) => view()?.surfaceClose?.(message),
        agentMessage: (message) => view()?.agentMessage?.(message),
        agentUnsupported: (message) => view()?.agentUnsupported?.(message),
        queued: (message) => view()?.queued?.(message),
        received: (message) => {
          this.#log('in', message);
          view()?.received?.(message);
        },
        sent: (message) => {
          this.#log('out', message);
          view()?.sent?.(message);
        },
        problem: (error) => view()?.problem?.(error),
        statusChanged: (status) => {
          if (status !== 'open') host.setAgentSink(null);
          this.#status = status;
          for (const listener of [...this.#statusListeners]) listener();
        },
      },
    });
  }

  /** The remote agent's URL (dialled, or held until the user decides), or null with the demo agent or none. */
  get remoteUrl(): string | null {
    return this.#remoteUrl;
  }

  /** Whether the remote agent waits for the user's decision: nothing has been dialled. */
  get held(): boolean {
    return this.#held;
  }

  /** The user allowed the held agent: it is dialled now (once a view is attached, else when one is). */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    if (this.#view !== null && !this.#stopped) this.client.start();
  }

  /** The user declined the held agent: it is never dialled, and the page has no agent. */
  decline(): void {
    if (!this.#held) return;
    this.#held = false;
    this.#remoteUrl = null;
    for (const listener of [...this.#statusListeners]) listener();
  }

  /**
   * The client's status; `stopped` once this page stopped it, `refused` once the agent refused this device's token
   * (no retry follows either).
   */
  get status(): AgentConnectionStatus | 'stopped' | 'refused' {
    if (this.#stopped) return 'stopped';
    return this.#refused ? 'refused' : this.#status;
  }

  /** The conversation the host shows now: the user's messages and the console's calls go there. */
  get conversationId(): string {
    return this.#conversationId;
  }

  /** Called when the conversation shown changes, or one is created. */
  onConversation(listener: () => void): () => void {
    this.#conversationListeners.add(listener);
    return () => this.#conversationListeners.delete(listener);
  }

  /** Shows another stored conversation; the agent gets the inventory there first (once connected). */
  async switchTo(conversationId: string): Promise<void> {
    const record = await this.store.get(conversationId);
    if (record === undefined) throw new Error(`There is no conversation ${conversationId}.`);
    this.#conversationId = conversationId;
    this.#notifyConversation();
    await this.client.openConversation(conversationId);
  }

  /** Starts a new conversation and shows it. */
  async newConversation(): Promise<string> {
    const record = await this.store.create();
    this.#conversationId = record.id;
    this.#notifyConversation();
    await this.client.openConversation(record.id);
    return record.id;
  }

  /**
   * What the user said, to the conversation shown, with what the views there said since the last turn: sent, or
   * queued while the agent is away.
   */
  sendUserMessage(text: string, viewContext: readonly ViewContext[] = []): Promise<AgentClientSendResult> {
    return this.client.sendUserMessage(this.#conversationId, text, { viewContext });
  }

  #notifyConversation(): void {
    rememberShownConversation(this.#conversationId);
    for (const listener of [...this.#conversationListeners]) listener();
  }

  onStatus(listener: () => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** Every envelope received or sent from now on (the agent console's log); returns the unsubscribe. */
  onMessage(listener: (entry: LoggedMessage) => void): () => void {
    this.#messageListeners.add(listener);
    return () => this.#messageListeners.delete(listener);
  }

  #log(direction: 'in' | 'out', message: LineUpMessage): void {
    const entry: LoggedMessage = { direction, message, at: Date.now() };
    for (const listener of [...this.#messageListeners]) listener(entry);
  }

  /**
   * Attaches the conversation view; the connection starts with the first one, so it misses nothing — unless its
   * agent is held (it starts on `release`) or there is none.
   */
  attach(view: ConnectionView | null): void {
    this.#view = view;
    if (view !== null && (this.agent !== null || (this.#remoteUrl !== null && !this.#held)))
      this.client.start();
  }

  /** A Surface's user event, to the conversation that opened it. */
  sendUIEvent(
    conversationId: string,
    payload: LineUpPayloadOf<'lineup.v1.ui.event'>,
  ): Promise<AgentClientSendResult> {
    return this.client.sendUIEvent(conversationId, payload);
  }

  /**
   * Stops for good (no retry). Resolves once every socket this page dialled has closed — the agent has seen the
   * connection end, so another tab of the profile may dial now — or after `closeWaitMs` at most.
   */
  stop(closeWaitMs = STOP_CLOSE_WAIT_MS): Promise<void> {
    this.#stopped = true;
    this.client.stop();
    for (const listener of [...this.#statusListeners]) listener();
    const open = [...this.#sockets].filter((socket) => socket.readyState !== WebSocket.CLOSED);
    if (open.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, closeWaitMs);
      let left = open.length;
      for (const socket of open)
        socket.addEventListener(
          'close',
          () => {
            if (--left > 0) return;
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
    });
  }
}

export type { LineUpMessage };
