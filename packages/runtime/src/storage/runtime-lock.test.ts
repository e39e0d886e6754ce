/**
 * The runtime lock's rules, against an in-memory Web Locks manager and channel (test/web-locks.ts: Node 20 has
 * neither `navigator.locks` nor tabs). The web host's Playwright suite (e2e/runtime-lock.spec.ts) proves the same
 * with Chromium's real ones, between two tabs.
 */
import { describe, expect, it, vi } from 'vitest';
import { Browser } from '../../test/web-locks.js';
import {
  holdRuntimeLock,
  type RuntimeLock,
  type RuntimeLockOptions,
  runtimeLockName,
} from './runtime-lock.js';

const FAST = { answerTimeoutMs: 40, handOverTimeoutMs: 400 } as const;

/** A tab with its runtime: what it is told, in order, in the shared log. */
function tab(
  browser: Browser,
  id: string,
  overrides: Partial<RuntimeLockOptions> = {},
): { lock: RuntimeLock; stopped: () => number } {
  let stops = 0;
  const lock = holdRuntimeLock('lineup-runtime', {
    ...FAST,
    tabId: id,
    locks: browser.locks(id),
    channel: browser.channel(id),
    onAcquired: () => browser.log.push(`${id} starts`),
    onWaiting: () => browser.log.push(`${id} waits`),
    onHandOver: async () => {
      browser.log.push(`${id} stopping`);
      await new Promise((resolve) => setTimeout(resolve, 10));
      stops++;
      browser.log.push(`${id} stopped`);
    },
    onLost: () => browser.log.push(`${id} lost`),
    ...overrides,
  });
  return { lock, stopped: () => stops };
}

const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));
const events = (browser: Browser) => browser.log.filter((line) => !line.startsWith('granted'));

describe('holdRuntimeLock', () => {
  it('is named after the database, one lock per profile', () => {
    expect(runtimeLockName('lineup-runtime')).toBe('lineup-runtime:lineup-runtime');
    expect(runtimeLockName('profile-2')).not.toBe(runtimeLockName('lineup-runtime'));
  });

  it('the first tab holds it and starts; a second waits, starts nothing and says so', async () => {
    const browser = new Browser();
    const a = tab(browser, 'a');
    await settle();
    const b = tab(browser, 'b');
    await settle();
    expect(a.lock.state).toBe('held');
    expect(b.lock.state).toBe('waiting');
    expect(events(browser)).toEqual(['a starts', 'b waits']);
  });

  it('closing the holder tab lets the waiting tab start by itself', async () => {
    const browser = new Browser();
    tab(browser, 'a');
    await settle();
    const b = tab(browser, 'b');
    await settle();
    browser.close('a');
    await settle();
    expect(b.lock.state).toBe('held');
    expect(events(browser)).toEqual(['a starts', 'b waits', 'b starts']);
  });

  it('a hand-over: the holder stops before the asking tab starts, and then waits in its turn', async () => {
    const browser = new Browser();
    const a = tab(browser, 'a');
    await settle();
    const b = tab(browser, 'b');
    await settle();
    const asked = Date.now();
    await expect(b.lock.takeOver()).resolves.toBe(true);
    // Taken as soon as the holder said it stopped, not when a timeout ran out.
    expect(Date.now() - asked).toBeLessThan(FAST.handOverTimeoutMs / 2);
    await settle();
    expect(events(browser)).toEqual(['a starts', 'b waits', 'a stopping', 'a stopped', 'b starts']);
    expect(a.stopped()).toBe(1);
    // Handing over is not losing: no onLost, and tab a is queued again (without saying "waits" twice).
    expect(a.lock.state).toBe('waiting');
    expect(b.lock.state).toBe('held');
    // Tab a takes it back the same way.
    await expect(a.lock.takeOver()).resolves.toBe(true);
    await settle();
    expect(events(browser).slice(5)).toEqual(['b stopping', 'b stopped', 'a starts']);
  });

  it('the tab that asked starts, not the one first in the queue', async () => {
    const browser = new Browser();
    tab(browser, 'a');
    await settle();
    const b = tab(browser, 'b');
    const c = tab(browser, 'c');
    await settle();
    await c.lock.takeOver();
    await settle();
    expect(c.lock.state).toBe('held');
    expect(b.lock.state).toBe('waiting');
    expect(events(browser).filter((line) => line.endsWith('starts'))).toEqual(['a starts', 'c starts']);
  });

  it('a holder that does not answer (frozen) has the lock stolen after the answer timeout and is told', async () => {
    const browser = new Browser();
    const a = tab(browser, 'a');
    await settle();
    const b = tab(browser, 'b');
    await settle();
    browser.deaf.add('a');
    const started = Date.now();
    await expect(b.lock.takeOver()).resolves.toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(FAST.answerTimeoutMs - 5);
    await settle();
    expect(events(browser)).toEqual(['a starts', 'b waits', 'a lost', 'b starts']);
    expect(a.stopped()).toBe(0);
    expect(a.lock.state).toBe('waiting');
  });

  it('a holder that answered but never finishes stopping loses the lock after the hand-over timeout', async () => {
    const browser = new Browser();
    tab(browser, 'a', {
      onHandOver: () => {
        browser.log.push('a stopping');
        return new Promise<void>(() => {});
      },
    });
    await settle();
    const b = tab(browser, 'b');
    await settle();
    const started = Date.now();
    await b.lock.takeOver();
    // It answered, so it got the longer wait, not the answer timeout.
    expect(Date.now() - started).toBeGreaterThanOrEqual(FAST.handOverTimeoutMs - 5);
    expect(events(browser)).toEqual(['a starts', 'b waits', 'a stopping', 'b starts']);
  });

  it('without a channel, taking over waits out the answer timeout, then steals', async () => {
    const browser = new Browser();
    tab(browser, 'a', { channel: null });
    await settle();
    const b = tab(browser, 'b', { channel: null });
    await settle();
    await b.lock.takeOver();
    await settle();
    expect(events(browser)).toEqual(['a starts', 'b waits', 'a lost', 'b starts']);
  });

  it('a holder whose asking tab went away lets go after the hand-over timeout, for the next in line', async () => {
    const browser = new Browser();
    const a = tab(browser, 'a', {
      onHandOver: async () => {
        browser.log.push('a stopping');
        await new Promise((resolve) => setTimeout(resolve, 60));
        browser.log.push('a stopped');
      },
    });
    await settle();
    const b = tab(browser, 'b');
    const c = tab(browser, 'c');
    await settle();
    void b.lock.takeOver();
    // Tab b closes before it could steal: a stopped, and lets go once the wait is over; c is first in line.
    await new Promise((resolve) => setTimeout(resolve, 15));
    b.lock.release(); // its script ends with its document
    browser.close('b');
    await vi.waitFor(() => expect(c.lock.state).toBe('held'), { timeout: 2_000 });
    expect(a.lock.state).toBe('waiting');
    expect(events(browser)).toEqual([
      'a starts',
      'b waits',
      'c waits',
      'a stopping',
      'a stopped',
      'c starts',
    ]);
  });

  it('ignores messages that are not hand-over messages, and its own', async () => {
    const browser = new Browser();
    const a = tab(browser, 'a');
    await settle();
    const post = browser.channel('x')('lineup-runtime:lineup-runtime');
    for (const message of [
      null,
      'hand_over',
      { kind: 'hand_over' },
      { kind: 'hand_over', from: 'x', request: 'has space' },
      { kind: 'hand_over', from: 'x'.repeat(129), request: 'r' },
      { kind: 'release', from: 'x', request: 'r' },
      { kind: 'stopped', to: 'a', request: 'r' },
    ])
      post.post(message);
    await settle();
    expect(a.lock.state).toBe('held');
    expect(events(browser)).toEqual(['a starts']);
  });

  it('release() and an aborted signal let go for good: the next tab starts, nothing more is called', async () => {
    const browser = new Browser();
    const controller = new AbortController();
    const a = tab(browser, 'a', { signal: controller.signal });
    await settle();
    const b = tab(browser, 'b');
    const c = tab(browser, 'c');
    await settle();
    controller.abort();
    await settle();
    expect(a.lock.state).toBe('released');
    expect(b.lock.state).toBe('held');
    // A queued tab that releases leaves the queue: c never starts while b holds, nor after b releases itself.
    c.lock.release();
    b.lock.release();
    await settle();
    expect(c.lock.state).toBe('released');
    await expect(c.lock.takeOver()).resolves.toBe(false);
    expect(events(browser)).toEqual(['a starts', 'b waits', 'c waits', 'b starts']);
    expect(browser.holder).toBeNull();
  });

  it('a takeOver under way when the holder closes ends with the queued grant, without a steal', async () => {
    const browser = new Browser();
    tab(browser, 'a', { onHandOver: () => new Promise<void>(() => {}) });
    await settle();
    const b = tab(browser, 'b');
    await settle();
    const taken = b.lock.takeOver();
    await settle(15);
    browser.close('a');
    await expect(taken).resolves.toBe(true);
    await settle(FAST.handOverTimeoutMs + 20);
    expect(browser.log.filter((line) => line === 'granted b')).toHaveLength(1);
    expect(events(browser)).toEqual(['a starts', 'b waits', 'b starts']);
  });

  it('without Web Locks it runs unguarded: acquired at once, and so is every other tab', async () => {
    const started: string[] = [];
    const options = (id: string): RuntimeLockOptions => ({
      locks: null,
      onAcquired: () => started.push(id),
      onHandOver: () => {},
    });
    const a = holdRuntimeLock('lineup-runtime', options('a'));
    const b = holdRuntimeLock('lineup-runtime', options('b'));
    expect(started).toEqual([]);
    await settle(0);
    expect(started).toEqual(['a', 'b']);
    expect([a.guarded, a.state, b.state]).toEqual([false, 'unguarded', 'unguarded']);
    await expect(b.takeOver()).resolves.toBe(true);
  });
});
