/**
 * Capabilities' `app.call` (seed 000 §5.2–§5.3) with an injectable clock: every status, consent by risk (remembered
 * and never-remembered grants), expiry before and during the question, replay and conflict by `call_id`, hostile
 * calls (undeclared, revoked, misspelled, off-schema arguments) and handler failures.
 */
import 'fake-indexeddb/auto';
import type { AppCallPayload } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import {
  CONVERSATION,
  call,
  DECLARATIONS,
  pendingResults,
  settle,
  setUp,
  T0,
} from '../../test/capability-runtime.js';
import type { CapabilityDeclaration } from '../apps/registry.js';
import { CapabilityError, CapabilityRuntime, type ConsentDecision } from './capability-runtime.js';

describe('app.call', () => {
  it('display_only runs without asking: completed with the result, queued for the agent, audited', async () => {
    const { runtime, asked, ran, db } = await setUp();
    const payload = call('status.show', { text: 'Saved' });
    const result = await settle(runtime, payload);
    expect(result).toEqual({ call_id: payload.call_id, status: 'completed', result: { shown: true } });
    expect(asked).toEqual([]);
    expect(ran).toEqual(['status Saved']);
    expect(await pendingResults(db)).toEqual([result]);
    const audit = (await db.getAll('audit')).filter((entry) => entry.callId === payload.call_id);
    expect(audit.map((entry) => entry.type)).toEqual([
      'capability_call_received',
      'capability_call_decided',
      'capability_call_finished',
    ]);
  });

  it('user_confirmation asks with the capability, the reason and what it does; allow runs it', async () => {
    const { runtime, asked, ran } = await setUp();
    const payload = call('app.open_url', { url: 'https://example.com/docs' });
    const result = await settle(runtime, payload);
    expect(result.status).toBe('completed');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      conversationId: CONVERSATION,
      callId: payload.call_id,
      capability: {
        name: 'app.open_url',
        risk: 'user_confirmation',
        description: 'Opens a web page in a new tab.',
      },
      reason: payload.reason,
      arguments: { url: 'https://example.com/docs' },
      rememberable: true,
      extraStep: false,
      expiresAt: T0 + 60_000,
    });
    expect(ran).toEqual(['open https://example.com/docs']);
  });

  it('deny is rejected, a dismissed question cancelled; neither runs', async () => {
    const setup = await setUp();
    setup.answer = () => ({ decision: 'deny' });
    const denied = await settle(setup.runtime, call('app.open_url', { url: 'https://a.example' }));
    expect(denied).toMatchObject({ status: 'rejected', error: { code: 'user_denied' } });
    setup.answer = () => ({ decision: 'dismiss' });
    const dismissed = await settle(setup.runtime, call('app.open_url', { url: 'https://b.example' }));
    expect(dismissed).toMatchObject({ status: 'cancelled', error: { code: 'dismissed' } });
    setup.answer = () => Promise.reject(new Error('the dialog broke'));
    const broken = await settle(setup.runtime, call('app.open_url', { url: 'https://c.example' }));
    expect(broken.status).toBe('cancelled');
    expect(setup.ran).toEqual([]);
    expect('result' in denied || 'result' in dismissed).toBe(false);
  });

  it('a remembered user_confirmation is not asked again in that conversation, but is in another and for a new version', async () => {
    const setup = await setUp();
    setup.answer = () => ({ decision: 'allow', remember: true });
    await settle(setup.runtime, call('app.open_url', { url: 'https://a.example' }));
    await settle(setup.runtime, call('app.open_url', { url: 'https://b.example' }));
    expect(setup.asked).toHaveLength(1);
    await settle(setup.runtime, call('app.open_url', { url: 'https://c.example' }), 'conv_other');
    expect(setup.asked).toHaveLength(2);
    await setup.registry.declareCapabilities(
      DECLARATIONS.map((item) => (item.name === 'app.open_url' ? { ...item, version: '2.0' } : item)),
    );
    await settle(setup.runtime, call('app.open_url', { url: 'https://d.example' }));
    expect(setup.asked).toHaveLength(3);
    expect(setup.ran).toHaveLength(4);
    const decided = (await setup.db.getAll('capability_calls')).map((record) => record.decision);
    expect(decided).toEqual(['allowed', 'remembered', 'allowed', 'allowed']);
  });

  it('system_permission and restricted always ask and are never remembered; restricted asks for an extra step', async () => {
    const setup = await setUp();
    setup.answer = () => ({ decision: 'allow', remember: true });
    await settle(setup.runtime, call('device.pick_file', {}));
    await settle(setup.runtime, call('device.pick_file', {}));
    await settle(setup.runtime, call('account.delete', {}));
    await settle(setup.runtime, call('account.delete', {}));
    expect(
      setup.asked.map((request) => [request.capability.name, request.rememberable, request.extraStep]),
    ).toEqual([
      ['device.pick_file', false, false],
      ['device.pick_file', false, false],
      ['account.delete', false, true],
      ['account.delete', false, true],
    ]);
    expect(await setup.db.count('grants')).toBe(0);
  });

  it('an expired call is expired and never asked or run', async () => {
    const setup = await setUp();
    const payload = call(
      'app.open_url',
      { url: 'https://a.example' },
      { expires_at: new Date(T0).toISOString() },
    );
    expect(await settle(setup.runtime, payload)).toMatchObject({
      status: 'expired',
      error: { code: 'expired' },
    });
    expect(setup.asked).toEqual([]);
    expect(setup.ran).toEqual([]);
  });

  it('a call that expires while the user is asked is expired, even if the answer is yes; the question is told', async () => {
    const setup = await setUp();
    let signal: AbortSignal | undefined;
    setup.answer = (request) => {
      signal = request.signal;
      setup.time.advance(61_000);
      return { decision: 'allow' };
    };
    const result = await settle(setup.runtime, call('app.open_url', { url: 'https://a.example' }));
    expect(result).toMatchObject({ status: 'expired' });
    expect(setup.ran).toEqual([]);
    expect(signal).toBeDefined();
  });

  it('closes an open question when the call expires (real timer) and answers expired', async () => {
    const setup = await setUp();
    const expiresAt = Date.now() + 150;
    setup.time.set(Date.now());
    const realTime = { now: () => Date.now() };
    const runtime = new CapabilityRuntime(setup.db, {
      handlers: setup.handlers,
      clock: realTime,
      confirm: (request) =>
        new Promise((resolve) =>
          request.signal.addEventListener('abort', () => resolve({ decision: 'dismiss' }), { once: true }),
        ),
    });
    const result = await settle(
      runtime,
      call('app.open_url', { url: 'https://a.example' }, { expires_at: new Date(expiresAt).toISOString() }),
    );
    expect(result).toMatchObject({ status: 'expired' });
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
  });

  it('answers hostile calls without asking or running anything', async () => {
    const setup = await setUp();
    await setup.registry.revokeCapability('status.show');
    const cases: [AppCallPayload, string, string][] = [
      [call('app.delete_everything', {}), 'unsupported', 'unknown_capability'],
      [call('app.open_urls', { url: 'https://a.example' }), 'unsupported', 'unknown_capability'],
      [call('status.show', { text: 'x' }), 'unsupported', 'revoked'],
      [call('app.open_url', { url: 'javascript:alert(1)' }), 'failed', 'invalid_arguments'],
      [call('app.open_url', { url: 'https://a.example', extra: 1 }), 'failed', 'invalid_arguments'],
      [call('app.open_url', {}), 'failed', 'invalid_arguments'],
    ];
    for (const [payload, status, code] of cases)
      expect(await settle(setup.runtime, payload), payload.capability).toMatchObject({
        status,
        error: { code },
      });
    expect(setup.asked).toEqual([]);
    expect(setup.ran).toEqual([]);
  });

  it('a capability declared without a handler is unsupported', async () => {
    const setup = await setUp();
    await setup.registry.declareCapabilities([
      ...DECLARATIONS,
      { ...(DECLARATIONS[1] as CapabilityDeclaration), name: 'status.orphan' },
    ]);
    expect(await settle(setup.runtime, call('status.orphan', { text: 'x' }))).toMatchObject({
      status: 'unsupported',
    });
  });

  it('a capability revoked while the user is asked is unsupported, not run', async () => {
    const setup = await setUp();
    setup.answer = async () => {
      await setup.registry.revokeCapability('app.open_url');
      return { decision: 'allow' };
    };
    expect(await settle(setup.runtime, call('app.open_url', { url: 'https://a.example' }))).toMatchObject({
      status: 'unsupported',
      error: { code: 'revoked' },
    });
    expect(setup.ran).toEqual([]);
  });

  it('the same call_id is answered from its record and never runs twice; other content is a conflict', async () => {
    const setup = await setUp();
    const payload = call('app.open_url', { url: 'https://a.example' });
    const first = await settle(setup.runtime, payload);
    const again = await setup.runtime.receive(CONVERSATION, payload);
    expect(again).toEqual({ disposition: 'replayed', answer: first });
    const conflict = await setup.runtime.receive(CONVERSATION, {
      ...payload,
      arguments: { url: 'https://b.example' },
    });
    expect(conflict.disposition).toBe('conflict');
    expect(conflict.answer).toMatchObject({ status: 'failed', error: { code: 'call_id_conflict' } });
    // The same call_id in another conversation is another call.
    expect((await setup.runtime.receive('conv_other', payload)).disposition).toBe('new');
    expect(setup.ran.filter((line) => line === 'open https://a.example')).toHaveLength(1);
  });

  it('a repeat while the user is still asked waits for the same result', async () => {
    const setup = await setUp();
    let decide: (decision: ConsentDecision) => void = () => {};
    setup.answer = () => new Promise((resolve) => (decide = resolve));
    const payload = call('app.open_url', { url: 'https://a.example' });
    const first = await setup.runtime.receive(CONVERSATION, payload);
    await vi.waitFor(() => expect(setup.asked).toHaveLength(1));
    const repeat = await setup.runtime.receive(CONVERSATION, payload);
    expect(repeat.disposition).toBe('in_flight');
    decide({ decision: 'allow' });
    expect(await repeat.settled).toEqual(await first.settled);
    expect(setup.asked).toHaveLength(1);
    expect(setup.ran).toHaveLength(1);
  });

  it('handler failures reach the agent as stable codes, never as the handler text; off-schema output is failed', async () => {
    const setup = await setUp();
    setup.handlers['status.show'] = () => {
      throw new CapabilityError('permission_denied', 'secret detail /home/user');
    };
    expect(await settle(setup.runtime, call('status.show', { text: 'a' }))).toEqual({
      call_id: expect.any(String),
      status: 'failed',
      error: { code: 'permission_denied', message: 'The capability did not complete.' },
    });
    setup.handlers['status.show'] = () => {
      throw new Error('TypeError at line 3 of secret.js');
    };
    const thrown = await settle(setup.runtime, call('status.show', { text: 'b' }));
    expect(thrown).toMatchObject({ status: 'failed', error: { code: 'execution_failed' } });
    expect(JSON.stringify(thrown)).not.toContain('secret');
    setup.handlers['status.show'] = () => ({ shown: 'yes' });
    expect(await settle(setup.runtime, call('status.show', { text: 'c' }))).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_output' },
    });
  });
});
