/**
 * The client in process with a scripted agent end, over the real runtime and outbox (fake-indexeddb): what the
 * AgentClient tests share.
 */
import 'fake-indexeddb/auto';
import { type LineUpMessage, parseEnvelopeText } from '@lineup/shared/protocol';
import { vi } from 'vitest';
import { AppRegistry } from '../src/apps/registry.js';
import {
  AgentClient,
  type AgentClientHandlers,
  type AgentClientOptions,
} from '../src/client/agent-client.js';
import { createInProcessTransport, type InProcessAgentEnd } from '../src/client/transport.js';
import { ConversationStore } from '../src/conversations/conversation-store.js';
import { ToolRuntime } from '../src/execution/tool-runtime.js';
import { OutboxDelivery } from '../src/outbox/delivery.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../src/storage/database.js';
import { focusManifest } from './manifests.js';

export const CONVERSATION = 'conv_1';
let databases = 0;
/**
 * This module is evaluated again for each test file that imports it, while the files of a worker share one
 * fake-indexeddb (the runtime's tests run with \`isolate: false\`): the counter starts at 0 each time, so names carry a
 * token of their own evaluation.
 */
const RUN = crypto.randomUUID().slice(0, 8);

export interface Setup {
  readonly db: RuntimeDatabase;
  readonly client: AgentClient;
  readonly agent: InProcessAgentEnd;
  /** Every frame the client sent, parsed as the agent would (client → agent). */
  readonly frames: LineUpMessage[];
  readonly handlers: Required<
    Pick<
      AgentClientHandlers,
      | 'document'
      | 'checkpoint'
      | 'surfaceOpen'
      | 'surfacePatch'
      | 'surfaceClose'
      | 'agentMessage'
      | 'agentUnsupported'
      | 'problem'
    >
  >;
  readonly deliver: () => Promise<void>;
}

let ids = 0;

export async function setUp(
  options: {
    conversations?: string[];
    surfaces?: boolean;
    /** A `ConversationStore` on the same database as the journal, with the conversations created in it. */
    journal?: boolean;
    /** More options of the client (limits, handlers). */
    client?: Partial<AgentClientOptions>;
  } = {},
): Promise<
  Setup & {
    readonly registry: AppRegistry;
    readonly runtime: ToolRuntime;
    readonly store: ConversationStore | undefined;
  }
> {
  const db = await openRuntimeDatabase(`agent-client-${RUN}-${databases++}`);
  const registry = new AppRegistry(db);
  await registry.install(
    { ...focusManifest(), surfaces: [{ id: 'card', entry: 'index.html', events: ['go'] }] },
    { bundleUrl: '/apps/focus/' },
  );
  const runtime = new ToolRuntime(db, registry);
  const outbox = new OutboxDelivery(db, { locks: null });
  const { transport, agent } = createInProcessTransport();
  const frames: LineUpMessage[] = [];
  agent.onFrame((text) => {
    const parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
    if (parsed.kind !== 'message') throw new Error(`The client sent an unsupported frame: ${text}`);
    frames.push(parsed.message);
  });
  const handlers = {
    document: vi.fn(),
    checkpoint: vi.fn(),
    surfaceOpen: vi.fn(),
    surfacePatch: vi.fn(),
    surfaceClose: vi.fn(),
    agentMessage: vi.fn(),
    agentUnsupported: vi.fn(),
    problem: vi.fn(),
  };
  let client: AgentClient;
  const deliver = async () => {
    await outbox.deliver((message) => client.sendOutboxMessage(message));
  };
  const conversations = options.conversations ?? [CONVERSATION];
  const store = options.journal === true ? new ConversationStore(db) : undefined;
  for (const id of conversations) await store?.create(id);
  client = new AgentClient({
    transport,
    clientId: 'web-host',
    inventory: () => registry.inventory(),
    tools: runtime,
    handlers,
    ...(options.surfaces === true ? { surfaces: registry } : {}),
    conversations,
    ...(store === undefined ? {} : { journal: store }),
    onSessionStart: () => void deliver(),
    ids: () => `m${++ids}`,
    ...options.client,
  });
  client.start();
  return { db, client, agent, frames, handlers, deliver, registry, runtime, store };
}

/** `type` and a short summary of each frame the client sent. */
export const summary = (frames: readonly LineUpMessage[]) =>
  frames.map((frame) => {
    const payload = frame.payload as {
      call_id?: string;
      status?: string;
      outcome?: string;
      revision?: string;
    };
    return `${frame.type.replace('lineup.v1.', '')} ${frame.conversation_id} ${payload.revision ?? payload.call_id ?? ''}${payload.status ? ` ${payload.status}` : ''}${payload.outcome ? ` ${payload.outcome}` : ''}`.trim();
  });
