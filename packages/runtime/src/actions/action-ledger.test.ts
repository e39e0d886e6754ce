/**
 * The DSL action ledger with an injectable clock, against documents recorded by the conversation store: requestId
 * semantics (the same request returns its receipt, other content is refused), re-derivation from the stored
 * document (values the page sends only as state, checked against the document; a page-sent document is never
 * used), refusals that write nothing, the receipt lifecycle (cancel, claim once, settle, no final status ever
 * changes), and a restart that turns running operations into `unknown`.
 */
import 'fake-indexeddb/auto';
import agentCallback from '@lineup/shared/fixtures/agent-callback.json' with { type: 'json' };
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import { type LineUpMessage, parseEnvelope } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../conversations/conversation-store.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { ActionLedger, ActionLedgerError } from './action-ledger.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const CONVERSATION = 'conv_actions';
let databases = 0;

function incoming(id: string, type: string, payload: object, conversation = CONVERSATION): LineUpMessage {
  const parsed = parseEnvelope(
    { v: 1, id, type, conversation_id: conversation, sender: { kind: 'agent', id: 'agent_test' }, payload },
    { direction: 'agent_to_client' },
  );
  if (parsed.kind !== 'message') throw new Error('not a message');
  return parsed.message;
}

const READ_FILE = {
  id: 'read_file',
  title: 'Read a file',
  description: 'Reads the first lines of a file.',
  risk: 'read' as const,
  parameters: { type: 'object' },
};

async function setUp() {
  const db: RuntimeDatabase = await openRuntimeDatabase(`actions-${databases++}`);
  let now = T0;
  const clock = { now: () => now };
  const store = new ConversationStore(db, { clock });
  await store.received(incoming('msg_reader', 'lineup.v1.ui.document', { document: fileReader }));
  await store.received(incoming('msg_callback', 'lineup.v1.ui.document', { document: agentCallback }));
  let ids = 0;
  const ledger = new ActionLedger(db, {
    documents: store,
    catalog: () => [READ_FILE as never],
    clock,
    ids: () => `op_${++ids}`,
  });
  return { db, store, ledger, advance: (ms: number) => (now += ms) };
}

const readerRef = { sourceCallId: 'msg_reader', uiId: 'compact_reader', generation: 0, revision: 0 };
const request = (requestId: string, values: object = { path: 'docs/guide.md' }) => ({
  documentRef: readerRef,
  requestId,
  actionId: 'read_info',
  values,
});

describe('reserve', () => {
  it('records a tool action with the arguments re-derived from the stored document, queued', async () => {
    const { ledger, db } = await setUp();
    const receipt = await ledger.reserve(CONVERSATION, request('req_1'));
    expect(receipt).toEqual({
      operationId: 'op_1',
      requestId: 'req_1',
      documentRef: readerRef,
      actionId: 'read_info',
      status: 'queued',
      parameterHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: T0,
      updatedAt: T0,
    });
    const row = await ledger.operation(CONVERSATION, 'op_1');
    expect(row).toMatchObject({
      kind: 'tool',
      capabilityId: 'read_file',
      arguments: { file_path: 'docs/guide.md', limit: 20 },
    });
    expect((await db.getAll('audit')).map((entry) => entry.type)).toEqual(['action_reserved']);
  });

  it('the same request again returns its receipt; the same requestId with other content is refused', async () => {
    const { ledger, db } = await setUp();
    const first = await ledger.reserve(CONVERSATION, request('req_1'));
    expect(await ledger.reserve(CONVERSATION, request('req_1'))).toEqual(first);
    await expect(ledger.reserve(CONVERSATION, request('req_1', { path: 'other.md' }))).rejects.toMatchObject({
      code: 'request_conflict',
    });
    // The same requestId in another conversation is another request (it is then refused: no such document).
    await expect(ledger.reserve('conv_other', request('req_1'))).rejects.toMatchObject({
      code: 'unknown_document',
    });
    expect(await db.count('action_ledger')).toBe(1);
  });

  it('never uses a document or arguments the page sends: only state values, checked against the stored document', async () => {
    const { ledger, db } = await setUp();
    const cases: [unknown, string][] = [
      [{ ...request('req_a'), document: { ...fileReader, actions: {} } }, 'invalid_request'],
      [{ ...request('req_b'), arguments: { file_path: '/etc/passwd' } }, 'invalid_request'],
      [request('req_c', { path: 'x'.repeat(1025) }), 'invalid_values'],
      [request('req_d', { lines: -1 }), 'invalid_values'],
      [request('req_e', { secret: 'x' }), 'invalid_values'],
      [request('req_f', { path: 7 }), 'invalid_values'],
      [{ ...request('req_g'), actionId: 'delete_all' }, 'unknown_action'],
      [
        { ...request('req_h'), documentRef: { ...readerRef, sourceCallId: 'msg_forged' } },
        'unknown_document',
      ],
      [
        { ...request('req_i'), documentRef: { ...readerRef, uiId: 'release-notes-helper' } },
        'unknown_document',
      ],
      [{ ...request('req_j'), requestId: '' }, 'invalid_request'],
    ];
    const outcomes: string[] = [];
    for (const [input] of cases) {
      try {
        await ledger.reserve(CONVERSATION, input);
        outcomes.push('recorded');
      } catch (error) {
        outcomes.push(error instanceof ActionLedgerError ? error.code : String(error));
      }
    }
    expect(outcomes).toEqual(cases.map(([, code]) => code));
    expect(await db.count('action_ledger')).toBe(0);
  });

  it('refuses a tool action whose capability the host does not offer', async () => {
    const { ledger } = await setUp();
    await expect(
      ledger.reserve(CONVERSATION, {
        documentRef: {
          sourceCallId: 'msg_callback',
          uiId: 'release-notes-helper',
          generation: 0,
          revision: 0,
        },
        requestId: 'req_search',
        actionId: 'search_changes',
        values: {},
      }),
    ).rejects.toMatchObject({ code: 'unknown_capability' });
  });

  it('records an agent action with its prompt re-derived from the stored document', async () => {
    const { ledger } = await setUp();
    const receipt = await ledger.reserve(CONVERSATION, {
      documentRef: { sourceCallId: 'msg_callback', uiId: 'release-notes-helper', generation: 0, revision: 0 },
      requestId: 'req_draft',
      actionId: 'draft_notes',
      values: { topic: 'Streaming' },
    });
    const row = await ledger.operation(CONVERSATION, receipt.operationId);
    expect(row.kind).toBe('agent');
    expect(row.prompt).toContain('Streaming');
  });

  it('refuses an agent action whose prompt computes to white space only (the wire message could never carry it)', async () => {
    const { ledger, store, db } = await setUp();
    const ask = {
      version: '1.1',
      id: 'asker',
      mode: 'interactive_ui',
      title: 'Ask',
      state: { p: { type: 'string', initial: 'hello', maxLength: 100 } },
      derived: {},
      actions: { ask: { kind: 'agent', prompt: { expr: { state: 'p' } } } },
      root: { id: 'b', type: 'Button', props: { label: 'Ask', action: { type: 'invoke', actionId: 'ask' } } },
    };
    await store.received(incoming('msg_ask', 'lineup.v1.ui.document', { document: ask }));
    const askRef = { sourceCallId: 'msg_ask', uiId: 'asker', generation: 0, revision: 0 };
    await expect(
      ledger.reserve(CONVERSATION, {
        documentRef: askRef,
        requestId: 'req_blank',
        actionId: 'ask',
        values: { p: ' \t ' },
      }),
    ).rejects.toMatchObject({ code: 'unknown_action' });
    expect(await db.count('action_ledger')).toBe(0);
    expect(
      await ledger.reserve(CONVERSATION, {
        documentRef: askRef,
        requestId: 'req_ok',
        actionId: 'ask',
        values: { p: ' hi ' },
      }),
    ).toMatchObject({ status: 'queued' });
  });

  it('refuses a stream snapshot that is not complete, and accepts the one that completed it', async () => {
    const { ledger, store } = await setUp();
    const snapshot = { ...fileReader, id: 'streamed_reader' };
    const frame = (type: string, seq: number, revision: number) => ({
      protocol: 'lineup.ui.stream',
      version: '1.0',
      sourceCallId: 'call_stream_1',
      uiId: 'streamed_reader',
      generation: 1,
      seq,
      baseRevision: revision === 0 ? null : revision - 1,
      revision,
      type,
      snapshot,
    });
    // Stored as received; the ledger reads the recorded frames, whatever a page holds.
    await store.received(
      incoming('msg_cp_1', 'lineup.v1.ui.checkpoint', { checkpoint: frame('snapshot', 0, 0) }),
    );
    const streamRef = { sourceCallId: 'call_stream_1', uiId: 'streamed_reader', generation: 1, revision: 0 };
    await expect(
      ledger.reserve(CONVERSATION, { ...request('req_s1'), documentRef: streamRef }),
    ).rejects.toMatchObject({ code: 'stream_not_complete' });
    await store.received(
      incoming('msg_cp_2', 'lineup.v1.ui.checkpoint', { checkpoint: frame('complete', 1, 0) }),
    );
    expect(
      (await ledger.reserve(CONVERSATION, { ...request('req_s2'), documentRef: streamRef })).status,
    ).toBe('queued');
  });
});

describe('the receipt lifecycle', () => {
  it('claim wins once; settle records the final status; nothing final ever changes', async () => {
    const { ledger, advance } = await setUp();
    const { operationId } = await ledger.reserve(CONVERSATION, request('req_1'));
    advance(10);
    const [first, second] = await Promise.all([
      ledger.claim(CONVERSATION, operationId),
      ledger.claim(CONVERSATION, operationId),
    ]);
    expect([first, second].filter((claimed) => claimed !== null)).toHaveLength(1);
    expect((await ledger.get(CONVERSATION, operationId)).status).toBe('running');
    advance(10);
    const done = await ledger.settle(CONVERSATION, operationId, 'succeeded', { result: { totalLines: 42 } });
    expect(done).toMatchObject({ status: 'succeeded', result: { totalLines: 42 }, updatedAt: T0 + 20 });
    for (const status of ['failed', 'cancelled', 'unknown'] as const)
      expect(await ledger.settle(CONVERSATION, operationId, status)).toEqual(done);
    expect(await ledger.cancel(CONVERSATION, operationId)).toEqual(done);
    expect(await ledger.claim(CONVERSATION, operationId)).toBeNull();
    await expect(ledger.settle(CONVERSATION, operationId, 'failed', { result: { x: 1 } })).rejects.toThrow(
      ActionLedgerError,
    );
  });

  it('cancel stops an operation that has not started (claiming no undo); a running one stays running', async () => {
    const { ledger } = await setUp();
    const queued = await ledger.reserve(CONVERSATION, request('req_1'));
    expect(await ledger.cancel(CONVERSATION, queued.operationId)).toMatchObject({
      status: 'cancelled',
      message: 'Cancelled before it ran.',
    });
    expect(await ledger.claim(CONVERSATION, queued.operationId)).toBeNull();
    const running = await ledger.reserve(CONVERSATION, request('req_2', { path: 'b.md' }));
    await ledger.claim(CONVERSATION, running.operationId);
    expect((await ledger.cancel(CONVERSATION, running.operationId)).status).toBe('running');
  });

  it('lists a document’s receipts, oldest first, and hides other conversations’ operations', async () => {
    const { ledger } = await setUp();
    const a = await ledger.reserve(CONVERSATION, request('req_1'));
    const b = await ledger.reserve(CONVERSATION, request('req_2', { path: 'b.md' }));
    expect((await ledger.list(CONVERSATION, readerRef)).map((receipt) => receipt.operationId)).toEqual([
      a.operationId,
      b.operationId,
    ]);
    expect(await ledger.list('conv_other', readerRef)).toEqual([]);
    await expect(ledger.get('conv_other', a.operationId)).rejects.toMatchObject({
      code: 'unknown_operation',
    });
    await expect(ledger.cancel('conv_other', a.operationId)).rejects.toMatchObject({
      code: 'unknown_operation',
    });
  });

  it('a restart schedules nothing again: not started → cancelled, a running tool action → unknown', async () => {
    const { ledger, db } = await setUp();
    const running = await ledger.reserve(CONVERSATION, request('req_1'));
    await ledger.claim(CONVERSATION, running.operationId);
    const queued = await ledger.reserve(CONVERSATION, request('req_2', { path: 'b.md' }));
    const asking = await ledger.reserve(CONVERSATION, request('req_3', { path: 'c.md' }));
    expect(await ledger.awaitConfirmation(CONVERSATION, asking.operationId)).not.toBeNull();
    // Only one claimant moves it: the second gets null.
    expect(await ledger.awaitConfirmation(CONVERSATION, asking.operationId)).toBeNull();
    const done = await ledger.reserve(CONVERSATION, request('req_4', { path: 'd.md' }));
    await ledger.claim(CONVERSATION, done.operationId);
    await ledger.settle(CONVERSATION, done.operationId, 'succeeded', { result: { totalLines: 3 } });
    const after = new ActionLedger(db, { documents: new ConversationStore(db), catalog: () => [] });
    expect(await after.recover()).toBe(3);
    expect((await after.get(CONVERSATION, running.operationId)).status).toBe('unknown');
    expect(await after.claim(CONVERSATION, running.operationId)).toBeNull();
    expect(await after.get(CONVERSATION, queued.operationId)).toMatchObject({
      status: 'cancelled',
      message: 'The page closed before this ran; it was not run.',
    });
    expect((await after.get(CONVERSATION, asking.operationId)).status).toBe('cancelled');
    expect(await after.get(CONVERSATION, done.operationId)).toMatchObject({
      status: 'succeeded',
      result: { totalLines: 3 },
    });
    expect(await after.recover()).toBe(0);
  });

  it('a restart leaves an agent action that was sent waiting for the answer; one maybe unsent is unknown', async () => {
    const { ledger, db } = await setUp();
    const callbackRef = { sourceCallId: 'msg_callback', uiId: agentCallback.id, generation: 0, revision: 0 };
    const agentRequest = (requestId: string) => ({
      documentRef: callbackRef,
      requestId,
      actionId: Object.keys(agentCallback.actions)[0],
      values: {},
    });
    const sent = await ledger.reserve(CONVERSATION, agentRequest('req_a1'));
    await ledger.claim(CONVERSATION, sent.operationId);
    await ledger.markSent(CONVERSATION, sent.operationId);
    const unsent = await ledger.reserve(CONVERSATION, agentRequest('req_a2'));
    await ledger.claim(CONVERSATION, unsent.operationId);
    const after = new ActionLedger(db, { documents: new ConversationStore(db), catalog: () => [] });
    expect(await after.recover()).toBe(1);
    expect((await after.get(CONVERSATION, sent.operationId)).status).toBe('running');
    expect((await after.awaitingAgent()).map((record) => record.operationId)).toEqual([sent.operationId]);
    expect((await after.get(CONVERSATION, unsent.operationId)).status).toBe('unknown');
    // A page still working on an operation keeps it: recover() skips the ids it is given.
    const third = await after.reserve(CONVERSATION, agentRequest('req_a3'));
    expect(await after.recover(new Set([third.operationId]))).toBe(0);
    expect((await after.get(CONVERSATION, third.operationId)).status).toBe('queued');
  });
});
