import type { Page } from '@playwright/test';
import { confirmAgentLink } from './agent-page.ts';
import { expect, test } from './fixtures.ts';
import {
  agentId,
  answersTo,
  type ClientEnvelope,
  type HostileAgent,
  startHostileAgent,
} from './hostile-agent.ts';
import { readStore } from './runtime-db.ts';

/**
 * The built host against a broken or hostile remote agent over a real WebSocket on 127.0.0.1: every frame it sends
 * gets a definite answer — by id, by call, or at the connection (a close code) — nothing refused runs, is recorded or
 * is shown, and the page keeps answering. Each case asserts the exact answer the agent receives.
 */

const DOCUMENT = {
  version: '1.0',
  id: 'hostile_doc',
  mode: 'structured_ui',
  title: 'A plain document',
  state: {},
  derived: {},
  root: { type: 'Text', id: 't', props: { text: 'Shown once' } },
};

const BUNDLE = {
  id: 'com.example.hostile',
  name: 'Hostile',
  version: '1.0.0',
  html: '<p id="p">hello</p>',
  css: '',
  js: '',
};

let agent: HostileAgent;
test.beforeEach(async () => {
  agent = await startHostileAgent();
});
test.afterEach(async ({ page }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus)
    console.log(
      agent.envelopes
        .map(
          (envelope) => `${envelope.id} ${envelope.type} ${JSON.stringify(envelope.payload).slice(0, 300)}`,
        )
        .join('\n'),
    );
  await page.close();
  await agent.close();
});

async function open(page: Page): Promise<string> {
  await page.goto(`/?agent=${encodeURIComponent(agent.url)}`);
  await confirmAgentLink(page);
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    `Agent: connected (${agent.url})`,
  );
  await expect
    .poll(() => agent.envelopes.some((envelope) => envelope.type === 'lineup.v1.client.inventory'))
    .toBe(true);
  return agent.conversation();
}

/** The one answer the client sends about `id` (or `callId`), once it came; fails on a second. */
async function answerTo(id: string, callId?: string): Promise<ClientEnvelope> {
  await expect
    .poll(() => answersTo(agent, id, callId).length, { message: `an answer to ${id}` })
    .toBeGreaterThan(0);
  // A second answer would have come right after the first (the client answers in order).
  await expect.poll(() => agent.acks.includes(id) || callId !== undefined).toBe(true);
  const answers = answersTo(agent, id, callId);
  expect(answers, `answers to ${id}`).toHaveLength(1);
  return answers[0]!;
}

/** The page still answers: the message box takes text and Send puts a turn on the wire. */
async function stillResponsive(page: Page, text: string) {
  await page.getByLabel('Message to the agent').fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect
    .poll(() =>
      agent.envelopes.some(
        (envelope) => envelope.type === 'lineup.v1.chat.user_message' && envelope.payload.text === text,
      ),
    )
    .toBe(true);
}

type Row = readonly [
  name: string,
  type: string,
  payload: Record<string, unknown>,
  path: string,
  code: string,
  answeredBy: 'id' | 'call',
];

const long = 'a'.repeat(200);
const toolCall = (callId: string) => ({
  call_id: callId,
  inventory_revision: 'inventory-2',
  tool: 'pomodoro.interrupt',
  arguments: {},
});
const appCall = (callId: string) => ({
  call_id: callId,
  capability: 'app.open_url',
  reason: 'Open the docs',
  expires_at: '2099-01-01T00:00:00Z',
  arguments: { url: 'https://example.com' },
});
const frame = (seq: number, revision: number, type: string, title: string, baseRevision: number | null) => ({
  protocol: 'dsh.intelligent-ui.stream',
  version: '1.0',
  sourceCallId: 'call_stream_h',
  uiId: 'hostile_doc',
  generation: 1,
  seq,
  baseRevision,
  revision,
  type,
  snapshot: { ...DOCUMENT, title },
});

/** Every agent → client type with an invalid payload: missing, extra, wrong-typed fields and bad ids. */
function invalidPayloads(): Row[] {
  const rows: Row[] = [];
  const open = { instance_id: 'w.1', app: BUNDLE, state: {} };
  const tables: [string, Record<string, unknown>, string, string][] = [
    // type, a valid payload, a required field to remove and mistype, the id field
    ['lineup.v1.ui.open', open, 'state', 'instance_id'],
    ['lineup.v1.ui.patch', { instance_id: 'w.1', state: {} }, 'state', 'instance_id'],
    ['lineup.v1.ui.close', { instance_id: 'w.1', reason: 'done' }, 'reason', 'instance_id'],
    ['lineup.v1.ui.document', { document: DOCUMENT }, 'document', 'document'],
    [
      'lineup.v1.ui.checkpoint',
      { checkpoint: frame(1, 0, 'snapshot', 'A', null) },
      'checkpoint',
      'checkpoint',
    ],
    ['lineup.v1.ui.action_result', { operation_id: 'op_1', status: 'accepted' }, 'status', 'operation_id'],
    ['lineup.v1.chat.agent_message', { text: 'hi' }, 'text', 'text'],
    ['lineup.v1.unsupported', { message_id: 'web-host:x', reason: 'unknown_type' }, 'reason', 'message_id'],
    ['lineup.v1.tool.call', toolCall('c'), 'inventory_revision', 'call_id'],
    ['lineup.v1.app.call', appCall('c'), 'expires_at', 'call_id'],
  ];
  for (const [type, payload, field, idField] of tables) {
    const call = type === 'lineup.v1.tool.call' || type === 'lineup.v1.app.call';
    const by = call ? 'call' : 'id';
    const { [field]: _removed, ...missing } = payload;
    rows.push([`${type}: ${field} missing`, type, missing, `payload.${field}`, 'missing_property', by]);
    rows.push([`${type}: an extra field`, type, { ...payload, zz: 1 }, 'payload', 'unknown_property', by]);
    // A number where an enum is expected is a value outside it; elsewhere a wrong type.
    const enumField =
      (type === 'lineup.v1.ui.action_result' && field === 'status') ||
      (type === 'lineup.v1.unsupported' && field === 'reason');
    rows.push([
      `${type}: ${field} of the wrong type`,
      type,
      { ...payload, [field]: 42 },
      `payload.${field}`,
      enumField ? 'invalid_value' : 'invalid_type',
      by,
    ]);
    if (idField === 'document' || idField === 'checkpoint' || idField === 'text') continue;
    // A bad id: a call whose call_id cannot be read is answered by its envelope id instead.
    rows.push([
      `${type}: ${idField} too long`,
      type,
      { ...payload, [idField]: long },
      `payload.${idField}`,
      'string_too_long',
      'id',
    ]);
  }
  return rows;
}

test('every message type with an invalid payload is answered by id or by call, with where and why', async ({
  page,
}) => {
  await open(page);
  const rows = invalidPayloads();
  expect(rows.length).toBeGreaterThanOrEqual(36);
  for (const [name, type, payload, path, code, by] of rows) {
    const callId = by === 'call' ? agentId('call_bad') : undefined;
    const sent = agent.send(type, callId === undefined ? payload : { ...payload, call_id: callId });
    const answer = await answerTo(String(sent.id), callId);
    if (by === 'call') {
      const error = (answer.payload.error ?? {}) as Record<string, unknown>;
      expect(answer.type, name).toBe(
        type === 'lineup.v1.tool.call' ? 'lineup.v1.tool.result' : 'lineup.v1.app.result',
      );
      expect(error.code, name).toBe('invalid_message');
      expect((error.issues as { path: string; code: string }[])[0], name).toMatchObject({ path, code });
    } else {
      expect(answer.type, name).toBe('lineup.v1.unsupported');
      expect(answer.payload, name).toMatchObject({
        message_id: sent.id,
        message_type: type,
        reason: 'invalid_message',
      });
      expect((answer.payload.issues as { path: string; code: string }[])[0], name).toMatchObject({
        path,
        code,
      });
    }
  }
  // Nothing refused ran or was shown: no tool call, no capability question, no document, no Surface.
  await expect(page.locator('.host__entries .lu-document, .host__entries iframe')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await count(page, 'tool_calls')).toBe(0);
  expect(await count(page, 'capability_calls')).toBe(0);
  await stillResponsive(page, 'still here after the invalid payloads');
});

test('header faults: a wrong direction, a wrong sender, a bad target, unknown types and versions', async ({
  page,
}) => {
  await open(page);
  const cases: [string, () => Record<string, unknown>, Record<string, unknown>][] = [
    [
      'a client → agent type',
      () =>
        agent.send('lineup.v1.tool.result', { call_id: 'x', outcome: 'error', error: { code: 'timeout' } }),
      {
        reason: 'invalid_message',
        issues: [expect.objectContaining({ path: 'type', code: 'invalid_value' })],
      },
    ],
    [
      'a client as the sender',
      () =>
        agent.send(
          'lineup.v1.chat.agent_message',
          { text: 'hi' },
          { sender: { kind: 'client', id: 'web-host' } },
        ),
      {
        reason: 'invalid_message',
        issues: [expect.objectContaining({ path: 'sender.kind', code: 'invalid_value' })],
      },
    ],
    [
      'a target that is no party',
      () => agent.send('lineup.v1.chat.agent_message', { text: 'hi' }, { target: 'web-host' }),
      {
        reason: 'invalid_message',
        issues: [expect.objectContaining({ path: 'target', code: 'invalid_type' })],
      },
    ],
    [
      'v 0',
      () => agent.send('lineup.v1.chat.agent_message', { text: 'hi' }, { v: 0 }),
      { reason: 'invalid_message', issues: [expect.objectContaining({ path: 'v' })] },
    ],
    [
      'v as a string',
      () => agent.send('lineup.v1.chat.agent_message', { text: 'hi' }, { v: '1' }),
      { reason: 'invalid_message', issues: [expect.objectContaining({ path: 'v', code: 'invalid_type' })] },
    ],
    [
      'an unknown type',
      () => agent.send('lineup.v1.ui.frobnicate', { anything: 1 }),
      { reason: 'unknown_type' },
    ],
    ['an unknown family', () => agent.send('acme.v9.teleport', {}), { reason: 'unknown_type' }],
    [
      'a later version',
      () => agent.send('lineup.v1.ui.open', {}, { v: 2 }),
      { reason: 'unsupported_version' },
    ],
  ];
  for (const [name, send, expected] of cases) {
    const sent = send();
    const answer = await answerTo(String(sent.id));
    expect(answer.type, name).toBe('lineup.v1.unsupported');
    expect(answer.payload, name).toMatchObject({ message_id: sent.id, ...expected });
  }
  await expect(page.locator('.host__chat-turn--agent')).toHaveCount(0);
  await stillResponsive(page, 'still here after the header faults');
});

test('frames with nothing to answer in are refused at the connection, and the client dials again', async ({
  page,
}) => {
  await page.clock.install();
  await open(page);
  const frames: [string, () => string | Buffer, number][] = [
    ['text that is not JSON', () => 'hello agent', 4007],
    ['JSON that is not an object', () => '[1,2,3]', 4007],
    [
      'an object without a conversation',
      () => JSON.stringify({ v: 1, id: 'x', type: 'lineup.v1.ui.close' }),
      4007,
    ],
    ['a binary frame', () => Buffer.from([0xde, 0xad, 0xbe, 0xef]), 4003],
    [
      'over the byte budget, its header last',
      () =>
        `{"payload":{"text":"${'x'.repeat(1_048_576)}"},"id":"m","conversation_id":"${agent.conversation()}"}`,
      4009,
    ],
    [
      'nesting past the budget before any header',
      () => `{"payload":${'['.repeat(5_000)}${']'.repeat(5_000)},"id":"m"}`,
      4009,
    ],
  ];
  for (const [index, [name, frame, code]] of frames.entries()) {
    agent.raw(frame());
    await expect.poll(() => agent.closes.length, { message: name }).toBe(index + 1);
    expect(agent.closes[index], name).toEqual({ code, reason: expect.stringMatching(/^lineup: /) });
    // The next dial is at most a backoff ceiling away (30 s) by the page's clock. The clock goes forward in steps of
    // 2 s and stops once the client dialled: one jump past the ack timeout (10 s) after a dial that came early would
    // close the new connection for an ack still on its way ("no ack").
    for (let waited = 0; agent.openedAt.length < index + 2 && waited <= 32_000; waited += 2_000) {
      await page.clock.fastForward(2_000);
      await page.waitForTimeout(50);
    }
    await expect.poll(() => agent.openedAt.length, { message: name, timeout: 15_000 }).toBe(index + 2);
    // In session again (generous, for a loaded 2-core machine).
    await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
      `Agent: connected (${agent.url})`,
      { timeout: 15_000 },
    );
  }
  // No frame's text reached the page: the refused note says what was wrong, never the frame.
  await expect(page.locator('.host__entries')).not.toContainText('hello agent');
  await expect(page.locator('.host__entries')).not.toContainText('xxxxxxxxxx');
  await stillResponsive(page, 'still here after the refused frames');
});

test('at the size limits: the largest document, checkpoint and Surface are taken; one byte more is refused by id', async ({
  page,
}) => {
  await open(page);
  const exactDocument = documentOfBytes(262_144);
  const over = documentOfBytes(262_145);
  const taken = agent.send('lineup.v1.ui.document', { document: exactDocument });
  await expect(page.locator('.host__entries').getByText('Padding 262144')).toBeVisible();
  await expect.poll(() => agent.acks).toContain(taken.id);
  const refused = agent.send('lineup.v1.ui.document', { document: over });
  expect((await answerTo(String(refused.id))).payload).toMatchObject({
    reason: 'invalid_message',
    issues: [expect.objectContaining({ path: 'payload.document', code: 'too_large' })],
  });

  // A checkpoint carrying the largest document is one frame within the stream's budget.
  const checkpoint = agent.send('lineup.v1.ui.checkpoint', {
    checkpoint: { ...frame(1, 0, 'snapshot', 'x', null), snapshot: exactDocument, uiId: exactDocument.id },
  });
  await expect.poll(() => agent.acks).toContain(checkpoint.id);
  expect(answersTo(agent, String(checkpoint.id))).toHaveLength(0);
  const overCheckpoint = agent.send('lineup.v1.ui.checkpoint', {
    checkpoint: { ...frame(1, 0, 'snapshot', 'x', null), snapshot: over, uiId: 'other_ui' },
  });
  expect((await answerTo(String(overCheckpoint.id))).payload).toMatchObject({
    reason: 'invalid_message',
    issues: [expect.objectContaining({ code: 'too_large' })],
  });

  // An inline Surface of exactly 160 KiB opens; one byte more is refused at its bundle.
  const exact = { ...BUNDLE, html: `<p id="p">${'x'.repeat(163_840 - 14)}</p>` };
  expect(new TextEncoder().encode(exact.html).length).toBe(163_840);
  const opened = agent.send('lineup.v1.ui.open', { instance_id: 'big.1', app: exact, state: {} });
  await expect(page.locator('.host__entries iframe')).toHaveCount(1);
  await expect.poll(() => agent.acks).toContain(opened.id);
  const tooBig = agent.send('lineup.v1.ui.open', {
    instance_id: 'big.2',
    app: { ...exact, js: ';' },
    state: {},
  });
  expect((await answerTo(String(tooBig.id))).payload).toMatchObject({
    reason: 'invalid_message',
    issues: [expect.objectContaining({ path: 'payload.app', code: 'too_large' })],
  });
  await expect(page.locator('.host__entries iframe')).toHaveCount(1);

  // An envelope over the wire's megabyte, its header first: refused by id, unread past the header.
  const huge = agent.send('lineup.v1.chat.agent_message', { text: 'y'.repeat(1_048_576) });
  expect((await answerTo(String(huge.id))).payload).toMatchObject({
    reason: 'invalid_message',
    issues: [expect.objectContaining({ path: '$', code: 'too_large' })],
  });
  await expect(page.locator('.host__entries')).not.toContainText('yyyyyyyyyy');
  await stillResponsive(page, 'still here after the largest messages');
});

test('deep nesting, __proto__ and constructor keys are refused where they are, and pollute nothing', async ({
  page,
}) => {
  await open(page);
  // A document nested past the DSL's 16 levels of UI.
  let node: Record<string, unknown> = { type: 'Text', id: 't0', props: { text: 'deep' } };
  for (let level = 1; level < 20; level++)
    node = { type: 'Column', id: `c${level}`, props: {}, children: [node] };
  const cases: [string, () => Record<string, unknown>, string | RegExp, string][] = [
    [
      'a document nested deeper than the DSL allows',
      () => agent.send('lineup.v1.ui.document', { document: { ...DOCUMENT, root: node } }),
      /^payload\.document\.root(\.children\[0\])+/,
      'too_deep',
    ],
    [
      'an envelope nested past the wire budget, header first',
      () => {
        const envelope = {
          v: 1,
          id: agentId(),
          type: 'lineup.v1.ui.patch',
          conversation_id: agent.conversation(),
          sender: { kind: 'agent', id: 'agent_hostile' },
        };
        agent.raw(
          `${JSON.stringify(envelope).slice(0, -1)},"payload":{"instance_id":"n.1","state":{"d":${'['.repeat(140)}${']'.repeat(140)}}}}`,
        );
        return envelope;
      },
      '$',
      'too_deep',
    ],
    [
      'an own __proto__ key in Surface state',
      () => {
        const envelope = {
          v: 1,
          id: agentId(),
          type: 'lineup.v1.ui.patch',
          conversation_id: agent.conversation(),
          sender: { kind: 'agent', id: 'agent_hostile' },
          payload: { instance_id: 'n.1', state: { safe: 1 } },
        };
        agent.raw(JSON.stringify(envelope).replace('"safe":1', '"__proto__":{"polluted":true}'));
        return envelope;
      },
      'payload.state',
      'invalid_identifier',
    ],
    [
      'constructor as a document state key',
      () =>
        agent.send('lineup.v1.ui.document', {
          document: { ...DOCUMENT, state: { constructor: { type: 'number', initial: 1 } } },
        }),
      'payload.document.state',
      'invalid_identifier',
    ],
  ];
  for (const [name, send, path, code] of cases) {
    const sent = send();
    const answer = await answerTo(String(sent.id));
    expect(answer.payload, name).toMatchObject({ reason: 'invalid_message' });
    const [issue] = answer.payload.issues as { path: string; code: string }[];
    expect(issue?.code, name).toBe(code);
    if (typeof path === 'string') expect(issue?.path, name).toBe(path);
    else expect(issue?.path, name).toMatch(path);
  }
  expect(
    await page.evaluate(() => ({}) as { polluted?: unknown }).then((value) => value.polluted),
  ).toBeUndefined();
  expect(await page.evaluate(() => (Object.prototype as { polluted?: unknown }).polluted)).toBeUndefined();
  await expect(page.locator('.host__entries iframe')).toHaveCount(0);
  await stillResponsive(page, 'still here after the nesting');
});

test('copies and reused ids: a copy is taken once, a call copy is answered again from its record, one call_id with two contents is a conflict', async ({
  page,
}) => {
  const conversation = await open(page);
  const turn = agent.send('lineup.v1.chat.agent_message', { text: 'Said once' });
  agent.raw(JSON.stringify(turn));
  await expect.poll(() => agent.acks.filter((id) => id === turn.id)).toHaveLength(2);
  await expect(page.locator('.host__chat-turn--agent').filter({ hasText: 'Said once' })).toHaveCount(1);

  const call = agent.send('lineup.v1.tool.call', toolCall('call_twice'));
  await expect
    .poll(() => answersTo(agent, String(call.id), 'call_twice').map((answer) => answer.type))
    .toEqual(['lineup.v1.tool.progress', 'lineup.v1.tool.result']);
  agent.raw(JSON.stringify(call));
  await expect.poll(() => answersTo(agent, String(call.id), 'call_twice')).toHaveLength(3);
  const [, result, replay] = answersTo(agent, String(call.id), 'call_twice');
  expect(replay?.payload).toEqual(result?.payload);
  // The same call_id with other content: refused, and the first call is untouched.
  const conflict = agent.send('lineup.v1.tool.call', {
    ...toolCall('call_twice'),
    arguments: { by: 'other' },
  });
  await expect.poll(() => answersTo(agent, String(conflict.id), 'call_twice')).toHaveLength(4);
  expect(answersTo(agent, String(conflict.id), 'call_twice')[3]?.payload).toMatchObject({
    call_id: 'call_twice',
    outcome: 'error',
    error: { code: 'call_id_conflict' },
  });
  expect(await count(page, 'tool_calls')).toBe(1);
  expect(conversation).toMatch(/^conv_/);
});

test('conversations are not targets: an unknown or unannounced conversation is refused there, and none appears', async ({
  page,
}) => {
  const first = await open(page);
  const before = await conversations(page);
  const unknown = 'conv_not_yours';
  const message = agent.send(
    'lineup.v1.chat.agent_message',
    { text: 'Injected' },
    { conversation_id: unknown },
  );
  const call = agent.send('lineup.v1.tool.call', toolCall('call_far'), { conversation_id: unknown });
  const answer = await answerTo(String(message.id));
  expect(answer).toMatchObject({
    conversation_id: unknown,
    payload: { message_id: message.id, reason: 'unknown_conversation' },
  });
  expect((await answerTo(String(call.id), 'call_far')).payload).toMatchObject({
    call_id: 'call_far',
    outcome: 'error',
    error: { code: 'unknown_conversation' },
  });
  expect(await conversations(page)).toEqual(before);
  await expect(page.getByText('Injected')).toHaveCount(0);
  expect(await count(page, 'tool_calls')).toBe(0);

  // A conversation of this profile that this session never announced: the same answer, until the user opens it.
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect
    .poll(() => agent.envelopes.filter((envelope) => envelope.type === 'lineup.v1.client.inventory').length)
    .toBe(2);
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    `Agent: connected (${agent.url})`,
  );
  await expect.poll(() => agent.openedAt.length).toBe(2);
  await expect
    .poll(() => agent.envelopes.filter((envelope) => envelope.type === 'lineup.v1.client.inventory').length)
    .toBe(3);
  const late = agent.send(
    'lineup.v1.chat.agent_message',
    { text: 'A late reply' },
    { conversation_id: first },
  );
  expect((await answerTo(String(late.id))).payload).toMatchObject({ reason: 'unknown_conversation' });
  // The user goes back to it: it gets the inventory, and the reply sent again is taken there.
  await page.getByLabel('Conversations').selectOption(first);
  await expect
    .poll(
      () =>
        agent.envelopes.filter(
          (envelope) => envelope.type === 'lineup.v1.client.inventory' && envelope.conversation_id === first,
        ).length,
    )
    .toBe(2);
  const again = agent.send(
    'lineup.v1.chat.agent_message',
    { text: 'A late reply' },
    { conversation_id: first },
  );
  await expect.poll(() => agent.acks).toContain(again.id);
  await expect(page.locator('.host__chat-turn--agent').filter({ hasText: 'A late reply' })).toHaveCount(1);
  expect(await conversations(page)).toHaveLength(2);
});

test('out-of-order stream frames: a gap is fine, a stale frame changes nothing, a conflict and a frame after the end are refused', async ({
  page,
}) => {
  await open(page);
  const send = (checkpoint: object) => agent.send('lineup.v1.ui.checkpoint', { checkpoint });
  const taken = [send(frame(1, 0, 'snapshot', 'First', null)), send(frame(3, 1, 'update', 'Third', 0))];
  const stale = send(frame(2, 1, 'update', 'Second', 0));
  const conflict = send(frame(3, 1, 'update', 'Forged', 0));
  const complete = send(frame(4, 1, 'complete', 'Third', 1));
  const late = send(frame(5, 2, 'update', 'Late', 1));
  for (const message of [...taken, stale, complete]) {
    await expect.poll(() => agent.acks).toContain(message.id);
    expect(answersTo(agent, String(message.id))).toHaveLength(0);
  }
  expect((await answerTo(String(conflict.id))).payload).toMatchObject({
    reason: 'invalid_message',
    issues: [expect.objectContaining({ path: 'payload.checkpoint.seq', code: 'duplicate_id' })],
  });
  expect((await answerTo(String(late.id))).payload).toMatchObject({
    reason: 'invalid_message',
    issues: [expect.objectContaining({ path: 'payload.checkpoint.seq', code: 'invalid_value' })],
  });
  await expect(page.locator('.lu-stream')).toHaveCount(1);
  await expect(page.locator('.lu-stream').getByRole('heading', { name: 'Third' })).toBeVisible();
});

test('controls: the suite sees silence, a second answer and a page that does not answer', async ({
  page,
}) => {
  await open(page);
  // Silence: a message that is taken has no envelope answer — only its ack — and the suite says so.
  const taken = agent.send('lineup.v1.chat.agent_message', { text: 'taken' });
  await expect.poll(() => agent.acks).toContain(taken.id);
  expect(answersTo(agent, String(taken.id))).toHaveLength(0);
  // A second answer: answerTo refuses two (an unknown type answered twice, as a copy would be).
  const unknown = agent.send('lineup.v1.ui.frobnicate', {});
  agent.raw(JSON.stringify(unknown));
  await expect.poll(() => answersTo(agent, String(unknown.id))).toHaveLength(2);
  await expect(answerTo(String(unknown.id))).rejects.toThrow();
  // A frozen page: stillResponsive fails while the main thread is held. The hold is the evaluation itself, so it
  // has begun before the first of the checks' commands reaches the page (they are taken in order).
  const frozen = page.evaluate(() => {
    const end = Date.now() + 6_000;
    while (Date.now() < end) {
      // hold the main thread
    }
  });
  await expect(stillResponsiveWithin(page, 'while frozen', 2_000)).rejects.toThrow();
  await frozen;
});

async function stillResponsiveWithin(page: Page, text: string, timeout: number) {
  await page.getByLabel('Message to the agent').fill(text, { timeout });
  await page.getByRole('button', { name: 'Send', exact: true }).click({ timeout });
}

/** A valid document of exactly `bytes` bytes as JSON (a Text padded with prose). */
function documentOfBytes(bytes: number) {
  const base = {
    ...DOCUMENT,
    id: `padded_${bytes}`,
    root: {
      type: 'Column',
      id: 'c',
      props: {},
      children: [{ type: 'Text', id: 'label', props: { text: `Padding ${bytes}` } }],
    },
  };
  const children = base.root.children as { type: string; id: string; props: { text: string } }[];
  const size = () => new TextEncoder().encode(JSON.stringify(base)).length;
  let index = 0;
  while (size() < bytes) {
    const missing = bytes - size();
    // A node costs about 50 bytes besides its text; the last few bytes lengthen the label instead.
    if (missing <= 100) children[0]!.props.text += 'x'.repeat(missing);
    else
      children.push({
        type: 'Text',
        id: `p${index++}`,
        props: { text: 'z'.repeat(Math.min(4_000, missing - 100)) },
      });
  }
  if (size() !== bytes) throw new Error(`the padded document is ${size()} bytes, not ${bytes}`);
  return base;
}

async function count(page: Page, store: string): Promise<number> {
  return (await readStore(page, store)).length;
}

async function conversations(page: Page): Promise<string[]> {
  return (await readStore<{ id: string }>(page, 'conversations')).map((record) => record.id).sort();
}
