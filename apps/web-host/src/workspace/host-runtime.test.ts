/**
 * Work the host starts without awaiting it (a delivery when the agent connects, a user's "back" or "close")
 * must never end as an unhandled rejection: when a newer tab takes the database over, the connection closes
 * under it (`InvalidStateError: The database connection is closing`). While the host runs, such a failure is
 * reported through `onProblem`; once it is disposed (the page is stopping), it is dropped. Vitest fails a run on
 * an unhandled rejection, so each case below would fail if a site went back to `void promise`.
 */
import 'fake-indexeddb/auto';
import { AppRegistry, openRuntimeDatabase, type RuntimeDatabase } from '@lineup/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HostRuntime } from './host-runtime.ts';

let databases = 0;
const opened: RuntimeDatabase[] = [];

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** A page's document as far as the host uses it: visibility and its change event. */
function fakeDocument(): Document {
  const target = new EventTarget();
  return Object.assign(target, { visibilityState: 'visible' }) as unknown as Document;
}

async function hostOnClosedDatabase() {
  const db = await openRuntimeDatabase(`host-runtime-${++databases}`);
  opened.push(db);
  const problems: string[] = [];
  const host = new HostRuntime(db, new AppRegistry(db), {
    document: fakeDocument(),
    onProblem: (text) => problems.push(text),
  });
  await host.start();
  // What a `versionchange` from a newer tab does to this page's connection.
  db.close();
  return { host, problems };
}

/** Lets pending promise jobs and IndexedDB's queued tasks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('HostRuntime after its database closed', () => {
  it('reports a delivery that cannot read the outbox when the agent connects, and sends nothing', async () => {
    const { host, problems } = await hostOnClosedDatabase();
    const sink = vi.fn();
    host.setAgentSink(sink);
    await settle();
    expect(sink).not.toHaveBeenCalled();
    expect(problems).toEqual([expect.stringMatching(/^A message could not be sent to the agent: /)]);
  });

  it('reports an explicit delivery (after a capability result) the same way', async () => {
    const { host, problems } = await hostOnClosedDatabase();
    host.setAgentSink(vi.fn());
    await settle();
    host.deliver();
    await settle();
    expect(problems).toHaveLength(2);
    expect(problems[1]).toMatch(/^A message could not be sent to the agent: /);
  });

  it('drops what fails once disposed: the page is stopping, nothing is reported or left unhandled', async () => {
    const { host, problems } = await hostOnClosedDatabase();
    host.dispose();
    host.setAgentSink(vi.fn());
    host.deliver();
    host.leave();
    host.close();
    await settle();
    expect(problems).toEqual([]);
  });
});

describe('HostRuntime handing over to another tab', () => {
  async function hostWithPendingRow() {
    const db = await openRuntimeDatabase(`host-runtime-${++databases}`);
    opened.push(db);
    const host = new HostRuntime(db, new AppRegistry(db), { document: fakeDocument() });
    await host.start();
    const id = await db.add('outbox', {
      at: 1,
      pending: 1,
      conversationId: 'conv_a',
      type: 'lineup.v1.app.result',
      payload: { call_id: 'call_a', status: 'cancelled' },
    });
    return { db, host, id };
  }

  it('once disposed it delivers nothing: the rows stay pending for the next runtime of the profile', async () => {
    const { db, host, id } = await hostWithPendingRow();
    host.dispose();
    const sink = vi.fn();
    host.setAgentSink(sink);
    host.deliver();
    await settle();
    expect(sink).not.toHaveBeenCalled();
    expect((await db.get('outbox', id))?.pending).toBe(1);
  });

  it('idle() resolves only once the delivery under way has marked its row delivered', async () => {
    const { db, host, id } = await hostWithPendingRow();
    let accept: () => void = () => {};
    const sent: number[] = [];
    host.setAgentSink(
      (message) =>
        new Promise<void>((resolve) => {
          sent.push(message.id);
          accept = resolve;
        }),
    );
    await vi.waitFor(() => expect(sent).toEqual([id]));
    host.dispose();
    let idle = false;
    const waiting = host.idle().then(() => {
      idle = true;
    });
    await settle();
    expect(idle).toBe(false);
    accept();
    await waiting;
    expect((await db.get('outbox', id))?.deliveredAt).toEqual(expect.any(Number));
  });
});

describe('HostRuntime taking a tool call', () => {
  it('answers the client at once while the answer waits for the agent: receive never waits on delivery', async () => {
    const db = await openRuntimeDatabase(`host-runtime-${++databases}`);
    opened.push(db);
    const host = new HostRuntime(db, new AppRegistry(db), { document: fakeDocument() });
    await host.start();
    // The agent never acknowledges: every send stays pending.
    const sent: string[] = [];
    host.setAgentSink((message) => {
      sent.push(message.type);
      return new Promise<void>(() => {});
    });
    const call = { call_id: 'call_1', inventory_revision: 'inventory-x', tool: 'none.tool', arguments: {} };
    const first = await host.receive('conv_a', call);
    expect(first.answer.type).toBe('lineup.v1.tool.result');
    const second = await host.receive('conv_a', { ...call, call_id: 'call_2' });
    expect(second.answer.type).toBe('lineup.v1.tool.result');
    // The first answer went to the sink and holds the outbox; the second waits behind it, in order.
    await vi.waitFor(() => expect(sent).toEqual(['lineup.v1.tool.result']));
    expect(await db.countFromIndex('outbox', 'by_pending')).toBe(2);
  });
});
