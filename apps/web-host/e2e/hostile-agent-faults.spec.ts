import type { Page } from '@playwright/test';
import { confirmAgentLink } from './agent-page.ts';
import { buildMarkdownMaxDocument, MARKDOWN_BLOCKS } from './bench/max-markdown-document.ts';
import { expect, test } from './fixtures.ts';
import { answersTo, type ClientEnvelope, type HostileAgent, startHostileAgent } from './hostile-agent.ts';
import { readStore } from './runtime-db.ts';
import { driveVisibility } from './visibility.ts';

/**
 * The built host against an agent that floods, never acknowledges, storms the connection, or talks across reloads,
 * over a real WebSocket on 127.0.0.1: nothing the client took is lost, nothing is done or sent twice under two ids,
 * and the page keeps answering.
 */

let agent: HostileAgent;
test.afterEach(async ({ page }) => {
  await page.close();
  await agent?.close();
});

async function open(page: Page): Promise<string> {
  await page.goto(`/?agent=${encodeURIComponent(agent.url)}`);
  await confirmAgentLink(page);
  await connected(page);
  await expect
    .poll(() => agent.envelopes.some((envelope) => envelope.type === 'lineup.v1.client.inventory'))
    .toBe(true);
  return agent.conversation();
}

async function connected(page: Page) {
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    `Agent: connected (${agent.url})`,
    { timeout: 15_000 },
  );
}

/** What the runtime database holds: a count of a store, or of the received envelopes of one type. */
async function stored(page: Page, store: string, receivedType?: string): Promise<number> {
  const records = await readStore<{ direction?: string; type?: string }>(page, store);
  return receivedType === undefined
    ? records.length
    : records.filter((record) => record.direction === 'in' && record.type === receivedType).length;
}

/** Every id the client sent more than once carries the same envelope each time (a copy, never another fact). */
function expectCopiesOnly(envelopes: readonly ClientEnvelope[]) {
  const byId = new Map<string, string>();
  for (const envelope of envelopes) {
    const text = JSON.stringify(envelope);
    const known = byId.get(envelope.id);
    if (known !== undefined) expect(text, `envelope ${envelope.id} sent again`).toBe(known);
    byId.set(envelope.id, text);
  }
}

/** The user types and sends; the turn reaches the agent. */
async function say(page: Page, text: string) {
  const box = page.getByLabel('Message to the agent');
  await box.fill(text);
  await box.press('Enter');
  await expect
    .poll(() => agent.envelopes.some((envelope) => envelope.payload.text === text), { timeout: 30_000 })
    .toBe(true);
}

test('a burst of 5,000 chat turns: every one is taken, acknowledged and recorded once, and the chat stays usable', async ({
  page,
}) => {
  test.setTimeout(180_000);
  agent = await startHostileAgent();
  const conversation = await open(page);
  const ids: string[] = [];
  for (let index = 0; index < 5_000; index++)
    ids.push(String(agent.send('lineup.v1.chat.agent_message', { text: `Turn **${index}**` }).id));
  // The user speaks in the middle of the burst, and the turn goes out while the burst is absorbed.
  await say(page, 'typed during the burst');
  await expect.poll(() => new Set(agent.acks).size, { timeout: 150_000 }).toBe(5_000);
  expect(new Set(agent.acks)).toEqual(new Set(ids));
  expect(await stored(page, 'messages', 'lineup.v1.chat.agent_message')).toBe(5_000);
  expect(agent.closes).toEqual([]);
  expect(answersTo(agent, ids[0]!)).toEqual([]);
  await page.reload();
  await connected(page);
  expect(await stored(page, 'messages', 'lineup.v1.chat.agent_message')).toBe(5_000);
  expect(agent.conversation()).toBe(conversation);
});

test('a burst of 2,000 state patches to one Surface: every one taken once, the last state shown', async ({
  page,
}) => {
  test.setTimeout(120_000);
  agent = await startHostileAgent();
  await open(page);
  agent.send('lineup.v1.ui.open', {
    instance_id: 'flood.1',
    app: {
      id: 'com.example.flood',
      name: 'Flood',
      version: '1.0.0',
      html: '<p id="n">none</p>',
      css: '',
      js: "LineUpSurface.onState((state) => { document.getElementById('n').textContent = String(state.n); });",
    },
    state: { n: -1 },
  });
  const frame = page.frameLocator('.host__entries iframe').frameLocator('iframe');
  await expect(page.locator('.host__entries iframe')).toHaveCount(1);
  const ids: string[] = [];
  for (let n = 0; n < 2_000; n++)
    ids.push(String(agent.send('lineup.v1.ui.patch', { instance_id: 'flood.1', state: { n } }).id));
  await expect.poll(() => new Set(agent.acks).size, { timeout: 90_000 }).toBeGreaterThanOrEqual(2_001);
  expect(ids.every((id) => agent.acks.includes(id))).toBe(true);
  await expect(frame.locator('#n').or(page.frameLocator('.host__entries iframe').locator('#n'))).toHaveText(
    '1999',
  );
  expect(await stored(page, 'messages', 'lineup.v1.ui.patch')).toBe(2_000);
  await say(page, 'typed after the patches');
});

test('a flood past what the client holds is refused as overloaded; what the agent sends again is taken once', async ({
  page,
}) => {
  test.setTimeout(240_000);
  agent = await startHostileAgent();
  await open(page);
  const sent = new Map<string, Record<string, unknown>>();
  // 15,000 in one burst: the client holds 10,000 waiting (AGENT_CLIENT_LIMITS), and takes far fewer than the
  // other 5,000 while they arrive.
  for (let index = 0; index < 15_000; index++) {
    const envelope = agent.send('lineup.v1.chat.agent_message', { text: `flood ${index}` });
    sent.set(String(envelope.id), envelope);
  }
  // The client refuses the connection (4013) and reads nothing more from it; the agent sends again what it did not
  // see acknowledged, once the client has dialled again and sent its inventory.
  let refusals = 0;
  for (let round = 0; round < 8; round++) {
    await expect
      .poll(
        () => new Set(agent.acks).size === sent.size || agent.closes.some((close) => close.code === 4013),
        {
          timeout: 120_000,
        },
      )
      .toBe(true);
    if (new Set(agent.acks).size === sent.size) break;
    refusals++;
    // The refused connection is closed and the client dialled again: the one open now is the new one. The
    // client says "connecting" while it takes in the backlog of the refused connection (on a slow machine, a
    // minute for 10,000 chat turns), then sends its inventory.
    await expect.poll(() => agent.open(), { timeout: 60_000 }).toBe(1);
    await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
      `Agent: connected (${agent.url})`,
      { timeout: 150_000 },
    );
    agent.closes.length = 0;
    // The client took in the backlog of the refused connection before it sent the inventory, so there is room
    // for what is sent again now.
    const acked = new Set(agent.acks);
    // Sent again as a well-behaved agent does after an overload: a window at a time, each acknowledged first.
    const unacked = [...sent.keys()].filter((id) => !acked.has(id));
    for (let start = 0; start < unacked.length; start += 2_000) {
      const window = unacked.slice(start, start + 2_000);
      for (const id of window) agent.raw(JSON.stringify(sent.get(id)));
      await expect
        .poll(
          () => {
            const now = new Set(agent.acks);
            return window.every((id) => now.has(id));
          },
          { timeout: 60_000 },
        )
        .toBe(true);
    }
    expect(agent.closes, 'no second refusal: there was room for what was sent again').toEqual([]);
  }
  expect(refusals, 'the burst was refused as overloaded once').toBe(1);
  expect(new Set(agent.acks).size).toBe(sent.size);
  // Nothing taken twice, nothing lost: one record per envelope.
  expect(await stored(page, 'messages', 'lineup.v1.chat.agent_message')).toBe(sent.size);
});

test('an agent that never acknowledges gets the same envelopes again with the same ids, never a second fact', async ({
  page,
}) => {
  test.setTimeout(120_000);
  agent = await startHostileAgent({ acks: true });
  await page.clock.install();
  await open(page);
  agent.acknowledge(false);
  await page.getByLabel('Message to the agent').fill('are you there?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // The user's turn went out once and waits for its ack (its timer runs); the client took the call (acked it)
  // and its answer went out too, unacknowledged: a send waiting for its ack holds up neither.
  await expect
    .poll(() => agent.envelopes.filter((envelope) => envelope.payload.text === 'are you there?').length)
    .toBe(1);
  const call = agent.send('lineup.v1.tool.call', {
    call_id: 'call_unacked',
    inventory_revision: 'inventory-2',
    tool: 'pomodoro.interrupt',
    arguments: {},
  });
  await expect.poll(() => agent.acks).toContain(call.id);
  await expect.poll(() => answersTo(agent, '', 'call_unacked').length).toBeGreaterThan(0);
  for (let cycle = 0; cycle < 3; cycle++) {
    const connections = agent.openedAt.length;
    // No ack within 10 s: the client closes (4000) and dials again after its backoff.
    await page.clock.fastForward(11_000);
    await expect
      .poll(() => agent.closes.some((close) => close.code === 4000), { timeout: 15_000 })
      .toBe(true);
    agent.closes.length = 0;
    await page.clock.fastForward(31_000);
    await expect.poll(() => agent.openedAt.length, { timeout: 15_000 }).toBe(connections + 1);
  }
  expectCopiesOnly(agent.envelopes);
  // The agent takes them at last: everything goes out once more, and nothing new appears.
  const answers = () => answersTo(agent, '', 'call_unacked').length;
  const turns = () => agent.envelopes.filter((envelope) => envelope.payload.text === 'are you there?').length;
  const [answersBefore, turnsBefore] = [answers(), turns()];
  agent.acknowledge(true);
  await page.clock.fastForward(11_000);
  await page.clock.fastForward(31_000);
  await expect.poll(answers, { timeout: 30_000 }).toBeGreaterThan(answersBefore);
  await expect.poll(turns).toBeGreaterThan(turnsBefore);
  // The call ends (Pomodoro starts for it first): its one result arrives.
  await expect
    .poll(() => answersTo(agent, '', 'call_unacked').map((answer) => answer.type), { timeout: 30_000 })
    .toContain('lineup.v1.tool.result');
  expectCopiesOnly(agent.envelopes);
  const distinct = new Map(agent.envelopes.map((envelope) => [envelope.id, envelope]));
  const facts = [...distinct.values()].map(
    (envelope) => `${envelope.type} ${envelope.conversation_id} ${JSON.stringify(envelope.payload)}`,
  );
  expect(new Set(facts).size, 'one id per fact').toBe(facts.length);
  await expect.poll(() => pendingRows(page)).toBe(0);
});

test('a reconnect storm backs off: an agent that drops every connection at once is dialled ever more slowly', async ({
  page,
}) => {
  agent = await startHostileAgent({ dropEveryConnection: true });
  await page.goto(`/?agent=${encodeURIComponent(agent.url)}`);
  await confirmAgentLink(page);
  const start = Date.now();
  await page.waitForTimeout(8_000);
  const dials = agent.openedAt.filter((at) => at - start <= 8_000).length;
  // Full jitter under ceilings of 0.5, 1, 2, 4, 8 s: a handful of dials in 8 s. Dialling again at once on every
  // open (the backoff reset by an open that drops at once) would be dozens.
  expect(dials).toBeGreaterThanOrEqual(2);
  expect(dials).toBeLessThanOrEqual(12);
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(/disconnected, retrying/);
  await page.getByLabel('Message to the agent').fill('the page still answers');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.locator('.host__chat-turn--user')).toContainText('the page still answers');
});

test.describe('control', () => {
  // The bare page used here has no favicon.
  test.use({ allowedConsoleErrors: /favicon\.ico/ });

  test('the storm counter sees a client that does not back off', async ({ page }) => {
    agent = await startHostileAgent({ dropEveryConnection: true });
    await page.goto('/favicon.svg');
    const start = Date.now();
    await page.evaluate(async (url) => {
      const end = Date.now() + 3_000;
      while (Date.now() < end)
        await new Promise<void>((resolve) => {
          const socket = new WebSocket(url);
          socket.onclose = () => resolve();
          socket.onerror = () => {};
        });
    }, agent.url);
    expect(agent.openedAt.filter((at) => at - start <= 8_000).length).toBeGreaterThan(12);
  });
});

test.describe('reloads', () => {
  test.beforeEach(async () => {
    agent = await startHostileAgent();
  });

  test('during an open capability question: one answer afterwards, and the same call again gets the same answer', async ({
    page,
  }) => {
    await open(page);
    const call = agent.send('lineup.v1.app.call', {
      call_id: 'call_reload_dialog',
      capability: 'app.open_url',
      reason: 'Open the guide',
      expires_at: '2099-01-01T00:00:00Z',
      arguments: { url: 'https://docs.example.test/' },
    });
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.reload();
    await connected(page);
    const results = () => answersTo(agent, '', 'call_reload_dialog').map((answer) => answer.payload);
    await expect.poll(results).toEqual([
      expect.objectContaining({
        status: 'cancelled',
        error: expect.objectContaining({ code: 'interrupted' }),
      }),
    ]);
    agent.raw(JSON.stringify(call));
    await expect.poll(results).toHaveLength(2);
    expect(results()[1]).toEqual(results()[0]);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('during a tool call waiting for its activation: every progress once, one final result, one operation', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const setHidden = await driveVisibility(page);
    await page.clock.install();
    await open(page);
    await setHidden(true);
    const call = agent.send('lineup.v1.tool.call', {
      call_id: 'call_waiting',
      inventory_revision: 'inventory-2',
      tool: 'pomodoro.start',
      arguments: { minutes: 1 },
    });
    const statuses = () =>
      [...new Map(answersTo(agent, '', 'call_waiting').map((answer) => [answer.id, answer])).values()].map(
        (answer) =>
          answer.type === 'lineup.v1.tool.result'
            ? `result ${(answer.payload.result as { status?: string } | undefined)?.status ?? answer.payload.outcome}`
            : String(answer.payload.status),
      );
    await expect.poll(statuses).toEqual(['accepted', 'starting']);
    // The page reloads while the start waits for the user. Whatever the runtime then decides — the start goes on,
    // or ends not_started when nobody saw it in time — the call gets one final result.
    await page.reload();
    await connected(page);
    const final = () => statuses().filter((status) => status.startsWith('result'));
    for (const step of [31_000, 61_000]) {
      if (final().length > 0) break;
      await page.clock.fastForward(step);
      await expect
        .poll(() => final().length > 0 || statuses().includes('started'), { timeout: 20_000 })
        .toBe(true);
      if (final().length === 0) await expect.poll(() => statuses().includes('started')).toBe(true);
    }
    await expect.poll(() => final().length, { timeout: 20_000 }).toBe(1);
    // Every status once, in the order of the protocol.
    expect(new Set(statuses()).size).toBe(statuses().length);
    expect(['accepted starting result not_started', 'accepted starting started result completed']).toContain(
      statuses().join(' '),
    );
    // The agent, unsure, sends the call again: answered from the record with the same result, run nothing.
    const before = answersTo(agent, '', 'call_waiting').length;
    agent.raw(JSON.stringify(call));
    await expect.poll(() => answersTo(agent, '', 'call_waiting').length).toBe(before + 1);
    const answers = answersTo(agent, '', 'call_waiting');
    const results = answers.filter((answer) => answer.type === 'lineup.v1.tool.result');
    expect(results.at(-1)?.payload).toEqual(results[0]?.payload);
    expect(await stored(page, 'operations')).toBe(final()[0] === 'result completed' ? 1 : 0);
    expectCopiesOnly(agent.envelopes);
  });

  test('a large document is kept as the text it came in, read back whole after a reload, and its copy is not shown again', async ({
    page,
  }) => {
    await open(page);
    const document = { ...buildMarkdownMaxDocument(7), id: 'kept_doc', title: 'Kept as text' };
    const sent = agent.send('lineup.v1.ui.document', { document });
    const title = page.locator('.lu-title', { hasText: 'Kept as text' });
    await expect(title).toHaveCount(1);
    await expect.poll(() => agent.acks).toContain(sent.id);
    const kept = (await readStore<{ id: string; text?: string; message?: unknown }>(page, 'messages')).filter(
      (record) => record.id === sent.id,
    );
    expect(kept).toHaveLength(1);
    expect(kept[0]?.message).toBeUndefined();
    expect(JSON.parse(kept[0]?.text ?? 'null')).toEqual(sent);
    expect(await readStore<string>(page, 'received_recent')).toContain(sent.id);
    await page.reload();
    await connected(page);
    await expect(title).toHaveCount(1);
    await expect(page.locator('.lu-ui', { has: title }).locator('.lu-markdown')).toHaveCount(MARKDOWN_BLOCKS);
    // The agent sends it again (as it would without an ack): acknowledged, dropped, shown and kept once.
    agent.raw(JSON.stringify(sent));
    await expect.poll(() => agent.acks.filter((id) => id === sent.id).length).toBe(2);
    await expect(title).toHaveCount(1);
    expect(await stored(page, 'messages', 'lineup.v1.ui.document')).toBe(1);
    expect(agent.envelopes.filter((envelope) => envelope.type === 'lineup.v1.unsupported')).toEqual([]);
  });

  test('during a stream: the frames after the reload complete it, a copy changes nothing, nothing is refused', async ({
    page,
  }) => {
    await open(page);
    const doc = (title: string) => ({
      version: '1.0',
      id: 'reload_doc',
      mode: 'structured_ui',
      title,
      state: {},
      derived: {},
      root: { type: 'Text', id: 't', props: { text: title } },
    });
    const frame = (
      seq: number,
      revision: number,
      type: string,
      title: string,
      baseRevision: number | null,
    ) => ({
      checkpoint: {
        protocol: 'dsh.intelligent-ui.stream',
        version: '1.0',
        sourceCallId: 'call_reload_stream',
        uiId: 'reload_doc',
        generation: 1,
        seq,
        baseRevision,
        revision,
        type,
        snapshot: doc(title),
      },
    });
    const first = agent.send('lineup.v1.ui.checkpoint', frame(1, 0, 'snapshot', 'Step one', null));
    const second = agent.send('lineup.v1.ui.checkpoint', frame(2, 1, 'update', 'Step two', 0));
    await expect.poll(() => agent.acks).toEqual(expect.arrayContaining([first.id, second.id]));
    await page.reload();
    await connected(page);
    await expect(page.locator('.lu-stream').getByRole('heading', { name: 'Step two' })).toBeVisible();
    agent.raw(JSON.stringify(second));
    const third = agent.send('lineup.v1.ui.checkpoint', frame(3, 2, 'update', 'Step three', 1));
    const done = agent.send('lineup.v1.ui.checkpoint', frame(4, 2, 'complete', 'Step three', 2));
    await expect.poll(() => agent.acks).toEqual(expect.arrayContaining([third.id, done.id]));
    await expect(page.locator('.lu-stream').getByRole('heading', { name: 'Step three' })).toBeVisible();
    await expect(page.locator('.lu-stream')).toHaveCount(1);
    expect(agent.envelopes.filter((envelope) => envelope.type === 'lineup.v1.unsupported')).toEqual([]);
    expect(await stored(page, 'messages', 'lineup.v1.ui.checkpoint')).toBe(4);
  });
});

async function pendingRows(page: Page): Promise<number> {
  return (await readStore<{ pending?: number }>(page, 'outbox')).filter((row) => row.pending !== undefined)
    .length;
}
