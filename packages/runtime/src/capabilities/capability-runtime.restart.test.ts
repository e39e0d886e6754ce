/**
 * Capabilities' `app.call` across a restart (seed 000 §5.2–§5.3): a call left waiting for consent or running is
 * settled once by the next page and never run again, and a page that stops with a question open ends it without a
 * write or an unhandled rejection.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { CONVERSATION, call, pendingResults, settle, setUp } from '../../test/capability-runtime.js';
import { openRuntimeDatabase } from '../storage/database.js';
import { CapabilityRuntime, type ConsentDecision } from './capability-runtime.js';

describe('a restart', () => {
  it('settles a call left waiting for consent as cancelled and one left running as failed, and runs neither again', async () => {
    const setup = await setUp();
    setup.answer = () => new Promise(() => {}); // the page goes away before the user answers
    const waiting = call('app.open_url', { url: 'https://a.example' });
    await setup.runtime.receive(CONVERSATION, waiting);
    await vi.waitFor(() => expect(setup.asked).toHaveLength(1));
    setup.handlers['status.show'] = () => new Promise(() => {}); // …and while this one runs
    const running = call('status.show', { text: 'x' });
    await setup.runtime.receive(CONVERSATION, running);
    await vi.waitFor(async () =>
      expect((await setup.db.get('capability_calls', `${CONVERSATION}\n${running.call_id}`))?.stage).toBe(
        'running',
      ),
    );
    const done = call('status.show', { text: 'y' }, {});
    setup.handlers['status.show'] = (args) => {
      setup.ran.push(`status ${String(args.text)}`);
      return { shown: true };
    };
    const finished = await settle(setup.runtime, done);
    // The page dies here (no dispose): a new page opens the same database.

    const after = setup.reload();
    expect(await after.recover()).toBe(2);
    const results = await pendingResults(setup.db);
    expect(results.find((result) => result.call_id === waiting.call_id)).toMatchObject({
      status: 'cancelled',
      error: { code: 'interrupted' },
    });
    expect(results.find((result) => result.call_id === running.call_id)).toMatchObject({
      status: 'failed',
      error: { code: 'outcome_unknown' },
    });
    expect(results.filter((result) => result.call_id === done.call_id)).toEqual([finished]);
    expect(await after.recover()).toBe(0);
    // The agent asks again about the call that was running: the recorded answer, no second run.
    expect((await after.receive(CONVERSATION, running)).answer).toMatchObject({ status: 'failed' });
    expect(setup.ran).toEqual(['status y']);
  });
});

describe('a page that stops with a question open', () => {
  it('closing the database first (the tab handed over): the question ends without a write or an unhandled rejection, and the next page settles it once', async () => {
    const setup = await setUp();
    let answer: (decision: ConsentDecision) => void = () => {};
    setup.answer = () => new Promise((resolve) => (answer = resolve));
    const open = call('app.open_url', { url: 'https://a.example' });
    const received = await setup.runtime.receive(CONVERSATION, open);
    await vi.waitFor(() => expect(setup.asked).toHaveLength(1));
    // The order a tab that hands over uses: its connection is closed, then its questions are dismissed.
    setup.db.close();
    answer({ decision: 'dismiss' });
    setup.runtime.dispose();
    // `settled` says the result was not persisted; nobody has to observe it (the agent client does not).
    await expect(received.settled).rejects.toThrow();
    const db = await openRuntimeDatabase(setup.db.name);
    const next = new CapabilityRuntime(db, {
      handlers: setup.handlers,
      confirm: () => new Promise(() => {}),
    });
    expect(await next.recover()).toBe(1);
    expect(await next.recover()).toBe(0);
    expect(await pendingResults(db)).toEqual([
      {
        call_id: open.call_id,
        status: 'cancelled',
        error: { code: 'interrupted', message: expect.any(String) },
      },
    ]);
    db.close();
  });

  it('a result the stopped page could not write is not an unhandled rejection', async () => {
    const setup = await setUp();
    let answer: (decision: ConsentDecision) => void = () => {};
    setup.answer = () => new Promise((resolve) => (answer = resolve));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await setup.runtime.receive(CONVERSATION, call('app.open_url', { url: 'https://b.example' }));
      await vi.waitFor(() => expect(setup.asked).toHaveLength(1));
      setup.db.close();
      answer({ decision: 'allow' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
