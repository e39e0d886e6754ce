/**
 * What the tests of the DSL action runner (`src/actions/action-runner.*.test.ts`) share: the declared wire
 * capabilities and the host's DSL bindings of them, the documents an agent sent, a runner with an injectable clock,
 * a scripted user and a scripted agent, and a user's click.
 */
import type { UIActionReceipt } from '@lineup/shared';
import agentCallback from '@lineup/shared/fixtures/agent-callback.json' with { type: 'json' };
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import { type LineUpMessage, parseEnvelope, type UIActionPayload } from '@lineup/shared/protocol';
import { ActionRunner, type DslCapabilityBinding } from '../src/actions/action-runner.js';
import { AppRegistry, type CapabilityDeclaration } from '../src/apps/registry.js';
import {
  type CapabilityHandler,
  CapabilityRuntime,
  type ConsentDecision,
  type ConsentRequest,
} from '../src/capabilities/capability-runtime.js';
import { ConversationStore } from '../src/conversations/conversation-store.js';
import { openRuntimeDatabase } from '../src/storage/database.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
export const CONVERSATION = 'conv_run';
let databases = 0;
/**
 * This module is evaluated again for each test file that imports it, while the files of a worker share one
 * fake-indexeddb (the runtime's tests run with \`isolate: false\`): the counter starts at 0 each time, so names carry a
 * token of their own evaluation.
 */
const RUN = crypto.randomUUID().slice(0, 8);

/** A new database, its name unique among the test files that import this (they share fake-indexeddb). */
export const newDatabase = () => openRuntimeDatabase(`action-runner-${RUN}-${databases++}`);

/** The JSON Schema of an object with `properties`, no others. */
export const schema = (properties: object, required: string[] = []) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as Record<string, unknown>;

/** The wire capabilities the host declares. */
export const WIRE: CapabilityDeclaration[] = [
  {
    name: 'device.pick_file',
    version: '1.0',
    risk: 'system_permission',
    description: 'Lets you pick a file.',
    input_schema: schema({ max_bytes: { type: 'integer', minimum: 1, maximum: 4096 } }),
    output_schema: schema({ name: { type: 'string' }, size: { type: 'integer' }, text: { type: 'string' } }, [
      'name',
      'size',
    ]),
  } as CapabilityDeclaration,
  {
    name: 'status.count',
    version: '1.0',
    risk: 'display_only',
    description: 'Counts characters.',
    input_schema: schema({ text: { type: 'string' } }, ['text']),
    output_schema: schema({ count: {}, secret: { type: 'string' } }, ['count']),
  } as CapabilityDeclaration,
  {
    name: 'clipboard.write',
    version: '1.0',
    risk: 'user_confirmation',
    description: 'Copies text.',
    input_schema: schema({ text: { type: 'string', maxLength: 64 } }, ['text']),
    output_schema: schema({ written: { type: 'boolean' } }, ['written']),
  } as CapabilityDeclaration,
];

/** The host's DSL capabilities, one for each wire capability. */
export const BINDINGS: DslCapabilityBinding[] = [
  {
    id: 'read_file',
    title: 'Read a file you pick',
    description: 'You pick a file; its number of lines is shown.',
    capability: 'device.pick_file',
    parameters: schema({ file_path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, [
      'file_path',
    ]),
    resultFields: ['totalLines'],
    toArguments: () => ({ max_bytes: 4096 }),
    toResult: (output) => ({
      totalLines: String(output.text ?? '').split('\n').length,
      name: output.name,
    }),
  },
  {
    id: 'count_chars',
    title: 'Count characters',
    description: 'Counts the characters of a text.',
    capability: 'status.count',
    parameters: schema({ text: { type: 'string' } }, ['text']),
    resultFields: ['count'],
  },
  {
    id: 'copy_text',
    title: 'Copy text',
    description: 'Copies a text to your clipboard.',
    capability: 'clipboard.write',
    parameters: schema({ text: { type: 'string' } }, ['text']),
    resultFields: ['written'],
  },
];

/** A 1.1 document with one tool action `go` for `capabilityId`, arguments `{ text: state.text }`. */
function toolDocument(id: string, capabilityId: string, extra: Record<string, unknown> = {}) {
  return {
    version: '1.1',
    id,
    mode: 'interactive_ui',
    title: `Doc ${id}`,
    state: { text: { type: 'string', initial: 'hello', maxLength: 100 } },
    derived: {},
    actions: {
      go: { kind: 'tool', capabilityId, arguments: { text: { expr: { state: 'text' } }, ...extra } },
    },
    root: {
      id: 'root',
      type: 'Button',
      props: { label: 'Go', action: { type: 'invoke', actionId: 'go' } },
    },
  };
}

/** The `lineup.v1.ui.document` message `id` with `payload`, as the agent sent it. */
export function incoming(id: string, payload: object): LineUpMessage {
  const parsed = parseEnvelope(
    {
      v: 1,
      id,
      type: 'lineup.v1.ui.document',
      conversation_id: CONVERSATION,
      sender: { kind: 'agent', id: 'agent_test' },
      payload,
    },
    { direction: 'agent_to_client' },
  );
  if (parsed.kind !== 'message') throw new Error('not a message');
  return parsed.message;
}

const ref = (sourceCallId: string, uiId: string) => ({ sourceCallId, uiId, generation: 0, revision: 0 });
/** The documents `setUp` records, by what they are for. */
export const REFS = {
  reader: ref('msg_reader', 'compact_reader'),
  count: ref('msg_count', 'counter'),
  copy: ref('msg_copy', 'copier'),
  bad: ref('msg_bad', 'bad_args'),
  callback: ref('msg_callback', agentCallback.id),
} as const;

export async function setUp(options: { agent?: boolean; bindings?: DslCapabilityBinding[] } = {}) {
  const db = await newDatabase();
  let now = T0;
  const clock = { now: () => now };
  const store = new ConversationStore(db, { clock });
  await store.received(incoming('msg_reader', { document: fileReader }));
  await store.received(incoming('msg_count', { document: toolDocument('counter', 'count_chars') }));
  await store.received(incoming('msg_copy', { document: toolDocument('copier', 'copy_text') }));
  await store.received(
    incoming('msg_bad', { document: toolDocument('bad_args', 'count_chars', { extra: 1 }) }),
  );
  await store.received(incoming('msg_callback', { document: agentCallback }));
  const registry = new AppRegistry(db, { clock });
  await registry.declareCapabilities(WIRE);
  const asked: ConsentRequest[] = [];
  const ran: string[] = [];
  const sent: UIActionPayload[] = [];
  const receipts: UIActionReceipt[] = [];
  const handlers: Record<string, CapabilityHandler> = {
    'device.pick_file': (args) => {
      ran.push(`pick ${JSON.stringify(args)}`);
      return { name: 'notes.txt', size: 11, text: 'one\ntwo\nthree' };
    },
    'status.count': (args) => {
      ran.push(`count ${String(args.text)}`);
      return { count: String(args.text).length, secret: 'private' };
    },
    'clipboard.write': (args) => {
      ran.push(`copy ${String(args.text)}`);
      return { written: true };
    },
  };
  const state = {
    answer: (_request: ConsentRequest): Promise<ConsentDecision> | ConsentDecision => ({ decision: 'allow' }),
  };
  const ids = { next: 0 };
  const make = () => {
    const capabilities = new CapabilityRuntime(db, {
      handlers,
      clock,
      confirm: async (request) => {
        asked.push(request);
        return state.answer(request);
      },
    });
    return new ActionRunner(db, {
      documents: store,
      capabilities,
      bindings: options.bindings ?? BINDINGS,
      clock,
      ids: () => `op_${++ids.next}`,
      onReceipt: (_conversation, receipt) => receipts.push(receipt),
      ...(options.agent === false
        ? {}
        : {
            agent: {
              sendAction: async (_conversation: string, payload: UIActionPayload) => {
                sent.push(payload);
              },
            },
          }),
    });
  };
  return {
    db,
    registry,
    asked,
    ran,
    sent,
    receipts,
    handlers,
    state,
    runner: make(),
    /** A new runner on the same database, like a page reload. */
    reload: make,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

let requests = 0;
/** A click on `actionId` of the document `documentRef`, a new request each time. */
export const click = (documentRef: object, actionId = 'go', values: object = {}) => ({
  documentRef,
  requestId: `req_${++requests}`,
  actionId,
  values,
});

/** The statuses the receipts of operation `operationId` went through, in order. */
export const statuses = (receipts: readonly UIActionReceipt[], operationId: string) =>
  receipts.filter((receipt) => receipt.operationId === operationId).map((receipt) => receipt.status);
