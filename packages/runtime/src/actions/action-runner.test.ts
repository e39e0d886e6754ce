/**
 * Running the DSL action ledger's operations (seed 002 §11, seed 004 §4) with an injectable clock and a scripted
 * user: the catalog derived from the declared wire capabilities (one risk mapping), consent by the wire risk for
 * interface actions (none, remembered, always asked), checks again after confirmation, public results of allowed
 * scalars only, raw errors withheld, one run per request, cancel and restart at each step, and agent actions settled
 * only by the agent's answer for that operation.
 */
import 'fake-indexeddb/auto';
import type { UIActionReceipt } from '@lineup/shared';
import agentCallback from '@lineup/shared/fixtures/agent-callback.json' with { type: 'json' };
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import {
  type LineUpMessage,
  parseEnvelope,
  parseEnvelopeText,
  type UIActionPayload,
} from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { AppRegistry, type CapabilityDeclaration } from '../apps/registry.js';
import {
  CapabilityError,
  type CapabilityHandler,
  CapabilityRuntime,
  type ConsentDecision,
  type ConsentRequest,
} from '../capabilities/capability-runtime.js';
import { AgentClient } from '../client/agent-client.js';
import { createInProcessTransport } from '../client/transport.js';
import { ConversationStore } from '../conversations/conversation-store.js';
import { openRuntimeDatabase } from '../storage/database.js';
import { SchemaUnusableError } from '../tools/schema-check.js';
import {
  ActionRunner,
  type ActionRunner as ActionRunnerType,
  DSL_RISK_OF,
  type DslCapabilityBinding,
} from './action-runner.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const CONVERSATION = 'conv_run';
let databases = 0;

const schema = (properties: object, required: string[] = []) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as Record<string, unknown>;

const WIRE: CapabilityDeclaration[] = [
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

const BINDINGS: DslCapabilityBinding[] = [
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

function incoming(id: string, payload: object): LineUpMessage {
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
const REFS = {
  reader: ref('msg_reader', 'compact_reader'),
  count: ref('msg_count', 'counter'),
  copy: ref('msg_copy', 'copier'),
  bad: ref('msg_bad', 'bad_args'),
  callback: ref('msg_callback', agentCallback.id),
} as const;
const CALLBACK_ACTION = Object.keys(agentCallback.actions)[0] as string;

async function setUp(options: { agent?: boolean; bindings?: DslCapabilityBinding[] } = {}) {
  const db = await openRuntimeDatabase(`action-runner-${databases++}`);
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
const click = (documentRef: object, actionId = 'go', values: object = {}) => ({
  documentRef,
  requestId: `req_${++requests}`,
  actionId,
  values,
});

const statuses = (receipts: readonly UIActionReceipt[], operationId: string) =>
  receipts.filter((receipt) => receipt.operationId === operationId).map((receipt) => receipt.status);

describe('the catalog', () => {
  it('offers the DSL capabilities of declared wire capabilities, with the risk derived once', async () => {
    const { runner, registry } = await setUp();
    expect(DSL_RISK_OF).toEqual({
      display_only: 'read',
      user_confirmation: 'write',
      system_permission: 'write',
      restricted: 'write',
    });
    const catalog = await runner.catalog();
    expect(catalog.map((item) => [item.id, item.risk])).toEqual([
      ['read_file', 'write'],
      ['count_chars', 'read'],
      ['copy_text', 'write'],
    ]);
    expect(catalog[0]).toEqual({
      id: 'read_file',
      title: 'Read a file you pick',
      description: 'You pick a file; its number of lines is shown.',
      risk: 'write',
      parameters: BINDINGS[0]?.parameters,
      resultFields: ['totalLines'],
    });
    await registry.revokeCapability('status.count');
    expect((await runner.catalog()).map((item) => item.id)).toEqual(['read_file', 'copy_text']);
    // A click for a revoked capability is refused at reserve: nothing is recorded.
    await expect(runner.submit(CONVERSATION, click(REFS.count))).rejects.toMatchObject({
      code: 'unknown_capability',
    });
  });

  it('refuses a host binding that breaks the descriptor rules, or two with one id', async () => {
    const db = await openRuntimeDatabase(`action-runner-${databases++}`);
    const base = {
      documents: new ConversationStore(db),
      capabilities: new CapabilityRuntime(db, { handlers: {} }),
    };
    expect(
      () =>
        new ActionRunner(db, {
          ...base,
          bindings: [{ ...(BINDINGS[1] as DslCapabilityBinding), id: 'has space' }],
        }),
    ).toThrow();
    expect(
      () =>
        new ActionRunner(db, {
          ...base,
          bindings: [{ ...(BINDINGS[1] as DslCapabilityBinding), title: '' }],
        }),
    ).toThrow();
    expect(
      () =>
        new ActionRunner(db, {
          ...base,
          bindings: [BINDINGS[1] as DslCapabilityBinding, BINDINGS[1] as DslCapabilityBinding],
        }),
    ).toThrow(/Two DSL capabilities named count_chars/);
    // Parameters the validator cannot use: refused here, not at every click.
    const unusable = () =>
      new ActionRunner(db, {
        ...base,
        bindings: [
          {
            ...(BINDINGS[1] as DslCapabilityBinding),
            parameters: schema({ text: { type: 'string', pattern: '[' } }, ['text']),
          },
        ],
      });
    expect(unusable).toThrow(SchemaUnusableError);
    expect(unusable).toThrow(
      'The parameters schema of DSL capability count_chars cannot be used: /properties/text/pattern is not',
    );
  });
});

describe('tool actions', () => {
  it('a read capability runs without asking; only the public fields come back, as scalars', async () => {
    const { runner, asked, ran, receipts } = await setUp();
    const receipt = await runner.submit(CONVERSATION, click(REFS.count, 'go', { text: 'four' }));
    expect(receipt).toMatchObject({ status: 'succeeded', result: { count: 4 } });
    expect(receipt.result).not.toHaveProperty('secret');
    expect(asked).toEqual([]);
    expect(ran).toEqual(['count four']);
    expect(statuses(receipts, receipt.operationId)).toEqual(['queued', 'running', 'succeeded']);
  });

  it('the file reader: the user is asked (awaiting_confirmation), picks, and the line count is the result', async () => {
    const { runner, asked, ran, receipts } = await setUp();
    const seen: string[] = [];
    const receipt = await runner.submit(
      CONVERSATION,
      click(REFS.reader, 'read_info', { path: 'notes.txt' }),
      (update) => seen.push(update.status),
    );
    expect(receipt).toMatchObject({ status: 'succeeded', result: { totalLines: 3 } });
    expect(receipt.result).toEqual({ totalLines: 3 });
    expect(seen).toEqual(['queued', 'awaiting_confirmation', 'running', 'succeeded']);
    expect(statuses(receipts, receipt.operationId)).toEqual(seen);
    expect(ran).toEqual(['pick {"max_bytes":4096}']);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      conversationId: CONVERSATION,
      callId: receipt.operationId,
      origin: {
        kind: 'interface',
        operationId: receipt.operationId,
        title: fileReader.title,
        actionId: 'read_info',
      },
      capability: { name: 'device.pick_file', risk: 'system_permission' },
      arguments: { max_bytes: 4096 },
      rememberable: false,
      extraStep: false,
    });
  });

  it('a refusal or a closed question is cancelled and nothing runs', async () => {
    const { runner, state, ran } = await setUp();
    state.answer = () => ({ decision: 'deny' });
    expect(await runner.submit(CONVERSATION, click(REFS.reader, 'read_info'))).toMatchObject({
      status: 'cancelled',
      message: 'You did not allow it; nothing ran.',
    });
    state.answer = () => ({ decision: 'dismiss' });
    expect(await runner.submit(CONVERSATION, click(REFS.reader, 'read_info'))).toMatchObject({
      status: 'cancelled',
      message: 'The question was closed without an answer; nothing ran.',
    });
    expect(ran).toEqual([]);
  });

  it('"remember" for a user_confirmation capability holds for the conversation; system_permission always asks', async () => {
    const { runner, state, asked, ran } = await setUp();
    state.answer = (request) => ({ decision: 'allow', remember: request.rememberable });
    await runner.submit(CONVERSATION, click(REFS.copy, 'go', { text: 'a' }));
    await runner.submit(CONVERSATION, click(REFS.copy, 'go', { text: 'b' }));
    await runner.submit(CONVERSATION, click(REFS.reader, 'read_info'));
    await runner.submit(CONVERSATION, click(REFS.reader, 'read_info'));
    expect(asked.map((request) => [request.capability.name, request.rememberable])).toEqual([
      ['clipboard.write', true],
      ['device.pick_file', false],
      ['device.pick_file', false],
    ]);
    expect(ran.filter((line) => line.startsWith('copy'))).toEqual(['copy a', 'copy b']);
  });

  it('after consent the capability is checked again: revoked or changed meanwhile, nothing runs', async () => {
    const { runner, registry, state, ran } = await setUp();
    state.answer = async () => {
      await registry.revokeCapability('device.pick_file');
      return { decision: 'allow' };
    };
    expect(await runner.submit(CONVERSATION, click(REFS.reader, 'read_info'))).toMatchObject({
      status: 'failed',
      message: 'The capability changed while you were asked; nothing ran (capability_changed).',
    });
    state.answer = async () => {
      await registry.declareCapabilities(
        WIRE.map((item) => (item.name === 'clipboard.write' ? { ...item, version: '2.0' } : item)),
      );
      return { decision: 'allow' };
    };
    expect(await runner.submit(CONVERSATION, click(REFS.copy))).toMatchObject({
      status: 'failed',
      message: 'The capability changed while you were asked; nothing ran (capability_changed).',
    });
    expect(ran).toEqual([]);
  });

  it('arguments off the DSL parameters or the wire schema fail before anyone is asked', async () => {
    const { runner, asked, ran } = await setUp({
      bindings: [
        BINDINGS[1] as DslCapabilityBinding,
        {
          ...(BINDINGS[2] as DslCapabilityBinding),
          toArguments: (args) => ({ text: String(args.text).repeat(100) }),
        },
      ],
    });
    // count_chars allows no `extra` argument (additionalProperties: false).
    expect(await runner.submit(CONVERSATION, click(REFS.bad))).toMatchObject({
      status: 'failed',
      message: 'The arguments do not fit the capability; nothing ran (invalid_arguments).',
    });
    // The adapted text is longer than clipboard.write's maxLength.
    expect(await runner.submit(CONVERSATION, click(REFS.copy))).toMatchObject({ status: 'failed' });
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('a handler failure says its stable code only; an output off schema or not scalar is invalid_output', async () => {
    const { runner, handlers } = await setUp();
    handlers['status.count'] = () => {
      throw new CapabilityError('quota_exceeded', 'user 42 at /home/secret is over quota');
    };
    const coded = await runner.submit(CONVERSATION, click(REFS.count));
    expect(coded).toMatchObject({ status: 'failed', message: 'It did not complete (quota_exceeded).' });
    handlers['status.count'] = () => {
      throw new Error('/home/secret/token.txt not found');
    };
    const raw = await runner.submit(CONVERSATION, click(REFS.count));
    expect(raw).toMatchObject({ status: 'failed', message: 'It did not complete (execution_failed).' });
    expect(JSON.stringify([coded, raw])).not.toContain('secret');
    handlers['status.count'] = () => ({ count: { nested: true } });
    expect(await runner.submit(CONVERSATION, click(REFS.count))).toMatchObject({
      status: 'failed',
      message: 'Its result could not be shown (invalid_output).',
    });
    handlers['status.count'] = () => ({ count: 1 });
    expect(
      await (
        await setUp({
          bindings: [
            {
              ...(BINDINGS[1] as DslCapabilityBinding),
              toResult: () => {
                throw new CapabilityError('file_too_large', 'the file /home/secret is 9 GB');
              },
            },
          ],
        })
      ).runner.submit(CONVERSATION, click(REFS.count)),
    ).toMatchObject({ status: 'failed', message: 'It did not complete (file_too_large).' });
    handlers['status.count'] = () => ({ total: 1 });
    expect(await runner.submit(CONVERSATION, click(REFS.count))).toMatchObject({
      status: 'failed',
      message: 'It did not complete (invalid_output).',
    });
  });

  it('a forged reserve runs nothing: another conversation’s document, a document never sent, an action of another document', async () => {
    const { runner, asked, ran, db } = await setUp();
    const forged: [string, object, string][] = [
      ['conv_other', click(REFS.count), 'unknown_document'],
      [CONVERSATION, click({ ...REFS.count, sourceCallId: 'msg_never_sent' }), 'unknown_document'],
      [CONVERSATION, click({ ...REFS.count, uiId: 'copier' }), 'unknown_document'],
      [CONVERSATION, click(REFS.count, 'read_info'), 'unknown_action'],
      [CONVERSATION, { ...click(REFS.count), arguments: { text: 'x' } }, 'invalid_request'],
    ];
    for (const [conversation, request, code] of forged)
      await expect(runner.submit(conversation, request)).rejects.toMatchObject({ code });
    expect(await db.count('action_ledger')).toBe(0);
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('one request runs once: a retry while running waits for it, a retry after returns the receipt', async () => {
    const { runner, ran } = await setUp();
    const request = click(REFS.count, 'go', { text: 'once' });
    const [first, second] = await Promise.all([
      runner.submit(CONVERSATION, request),
      runner.submit(CONVERSATION, request),
    ]);
    expect(second).toEqual(first);
    expect(await runner.submit(CONVERSATION, request)).toEqual(first);
    expect(ran).toEqual(['count once']);
    await expect(
      runner.submit(CONVERSATION, { ...request, values: { text: 'other' } }),
    ).rejects.toMatchObject({ code: 'request_conflict' });
  });

  it('a cancel while the user is asked wins: the answer comes too late and nothing runs', async () => {
    const { runner, state, ran } = await setUp();
    let operationId = '';
    state.answer = async (request) => {
      operationId = request.callId;
      await runner.ledger.cancel(CONVERSATION, request.callId);
      return { decision: 'allow' };
    };
    const receipt = await runner.submit(CONVERSATION, click(REFS.reader, 'read_info'));
    expect(receipt).toMatchObject({ operationId, status: 'cancelled' });
    expect(ran).toEqual([]);
  });

  it('a reload while asked: cancelled, never asked again; while running: unknown, never run again', async () => {
    const setup = await setUp();
    let release: (decision: ConsentDecision) => void = () => {};
    setup.state.answer = () => new Promise((resolve) => (release = resolve));
    const pending = setup.runner.submit(CONVERSATION, click(REFS.reader, 'read_info'));
    await expect.poll(() => setup.asked.length).toBe(1);
    const operationId = setup.asked[0]?.callId as string;
    // The page reloads: a new runner on the same database recovers.
    const after = setup.reload();
    expect(await after.recover()).toBe(1);
    expect(await after.ledger.get(CONVERSATION, operationId)).toMatchObject({ status: 'cancelled' });
    release({ decision: 'allow' });
    expect((await pending).status).toBe('cancelled');
    expect(setup.ran).toEqual([]);

    let finish: () => void = () => {};
    setup.handlers['status.count'] = () =>
      new Promise((resolve) => {
        finish = () => resolve({ count: 1 });
      });
    const running = setup.runner.submit(CONVERSATION, click(REFS.count));
    await expect
      .poll(async () => (await setup.db.getAllFromIndex('action_ledger', 'by_status', 'running')).length)
      .toBe(1);
    const again = setup.reload();
    expect(await again.recover()).toBe(1);
    finish();
    const final = await running;
    expect(final.status).toBe('unknown');
    expect(final.result).toBeUndefined();
  });
});

describe('agent actions', () => {
  const agentClick = () => click(REFS.callback, CALLBACK_ACTION, {});

  it('the prompt goes to the agent once; its accepted answer settles the receipt', async () => {
    const { runner, sent, receipts } = await setUp();
    const pending = runner.submit(CONVERSATION, agentClick());
    await expect.poll(() => sent.length).toBe(1);
    const payload = sent[0] as UIActionPayload;
    expect(payload).toMatchObject({
      action_id: CALLBACK_ACTION,
      document: { source_call_id: 'msg_callback', ui_id: agentCallback.id, generation: 0, revision: 0 },
    });
    expect(payload.prompt).toContain('已找到的相关记录数');
    expect((await runner.ledger.get(CONVERSATION, payload.operation_id)).status).toBe('running');
    expect(
      await runner.receiveAnswer(CONVERSATION, { operation_id: payload.operation_id, status: 'accepted' }),
    ).toMatchObject({
      outcome: 'settled',
    });
    expect((await pending).status).toBe('accepted');
    expect(statuses(receipts, payload.operation_id)).toEqual(['queued', 'running', 'accepted']);
    // Answered once: a second answer changes nothing.
    expect(
      await runner.receiveAnswer(CONVERSATION, { operation_id: payload.operation_id, status: 'declined' }),
    ).toEqual({ outcome: 'ignored', reason: 'not_waiting' });
    expect((await runner.ledger.get(CONVERSATION, payload.operation_id)).status).toBe('accepted');
  });

  it('declined is failed with the agent’s message; answers for other operations change nothing', async () => {
    const { runner, sent } = await setUp();
    const pending = runner.submit(CONVERSATION, agentClick());
    await expect.poll(() => sent.length).toBe(1);
    const operationId = (sent[0] as UIActionPayload).operation_id;
    const tool = await runner.submit(CONVERSATION, click(REFS.count));
    expect(await runner.receiveAnswer(CONVERSATION, { operation_id: 'op_nope', status: 'accepted' })).toEqual(
      {
        outcome: 'ignored',
        reason: 'unknown_operation',
      },
    );
    expect(
      await runner.receiveAnswer(CONVERSATION, { operation_id: tool.operationId, status: 'accepted' }),
    ).toEqual({ outcome: 'ignored', reason: 'not_an_agent_action' });
    expect(
      await runner.receiveAnswer('conv_other', { operation_id: operationId, status: 'accepted' }),
    ).toEqual({
      outcome: 'ignored',
      reason: 'unknown_operation',
    });
    expect(
      await runner.receiveAnswer(CONVERSATION, {
        operation_id: operationId,
        status: 'declined',
        message: 'I am busy with another task.',
      }),
    ).toMatchObject({ outcome: 'settled' });
    expect(await pending).toMatchObject({ status: 'failed', message: 'I am busy with another task.' });
  });

  it('without an agent nothing is sent and the action fails', async () => {
    const { runner, sent } = await setUp({ agent: false });
    expect(await runner.submit(CONVERSATION, agentClick())).toMatchObject({
      status: 'failed',
      message: 'No agent is connected to this page; nothing was sent.',
    });
    expect(sent).toEqual([]);
  });

  it('a reload after it was sent keeps it waiting; the agent’s later answer settles it', async () => {
    const setup = await setUp();
    void setup.runner.submit(CONVERSATION, agentClick());
    await expect.poll(() => setup.sent.length).toBe(1);
    const operationId = (setup.sent[0] as UIActionPayload).operation_id;
    await expect
      .poll(async () => (await setup.runner.ledger.operation(CONVERSATION, operationId)).sentAt)
      .toBeDefined();
    const after: ActionRunnerType = setup.reload();
    expect(await after.recover()).toBe(0);
    expect(setup.sent).toHaveLength(1);
    expect(
      await after.receiveAnswer(CONVERSATION, { operation_id: operationId, status: 'accepted' }),
    ).toMatchObject({
      outcome: 'settled',
      receipt: { status: 'accepted' },
    });
  });

  it('over the AgentClient: a click while the agent is away waits in the journal, reaches it once, and its answer settles it', async () => {
    const db = await openRuntimeDatabase(`action-runner-${databases++}`);
    const store = new ConversationStore(db);
    await store.received(incoming('msg_callback', { document: agentCallback }));
    const registry = new AppRegistry(db);
    const { transport, agent } = createInProcessTransport();
    const actions: LineUpMessage[] = [];
    agent.onFrame((text) => {
      const parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
      if (parsed.kind === 'message' && parsed.message.type === 'lineup.v1.ui.action')
        actions.push(parsed.message);
    });
    let runner: ActionRunner;
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      journal: store,
      conversations: [CONVERSATION],
      actions: { receiveAnswer: (conversationId, answer) => runner.receiveAnswer(conversationId, answer) },
    });
    runner = new ActionRunner(db, {
      documents: store,
      capabilities: new CapabilityRuntime(db, { handlers: {} }),
      bindings: [],
      agent: { sendAction: (conversationId, payload) => client.sendUIAction(conversationId, payload) },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent.drop();
    await vi.waitFor(() => expect(client.status).not.toBe('open'));
    const final = runner.submit(CONVERSATION, agentClick());
    // Queued in the journal (strictly) before the receipt says it was sent.
    await vi.waitFor(async () =>
      expect((await store.pending()).map((message) => message.type)).toEqual(['lineup.v1.ui.action']),
    );
    await vi.waitFor(async () => {
      const [record] = await db.getAll('action_ledger');
      expect(record?.sentAt).toBeDefined();
    });
    expect(actions).toEqual([]);
    agent.restore();
    await vi.waitFor(() => expect(actions).toHaveLength(1));
    const message = actions[0] as LineUpMessage & { payload: UIActionPayload };
    expect(message.conversation_id).toBe(CONVERSATION);
    expect(message.sender.kind).toBe('client');
    // The agent answers for another operation first: nothing changes; then for this one.
    agent.send({
      v: 1,
      id: 'msg_answer_wrong',
      type: 'lineup.v1.ui.action_result',
      conversation_id: CONVERSATION,
      sender: { kind: 'agent', id: 'agent_test' },
      payload: { operation_id: 'op_forged', status: 'accepted' },
    });
    agent.send({
      v: 1,
      id: 'msg_answer',
      type: 'lineup.v1.ui.action_result',
      conversation_id: CONVERSATION,
      sender: { kind: 'agent', id: 'agent_test' },
      payload: { operation_id: message.payload.operation_id, status: 'accepted', message: 'On it.' },
    });
    expect(await final).toMatchObject({ status: 'accepted', message: 'On it.' });
    expect(await db.count('action_ledger')).toBe(1);
    client.stop();
  });
});
