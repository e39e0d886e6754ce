/**
 * Running the DSL action ledger's tool actions (seed 002 §11, seed 004 §4) with an injectable clock and a scripted
 * user: consent by the wire risk for interface actions (none, remembered, always asked), checks again after
 * confirmation, public results of allowed scalars only, raw errors withheld, one run per request, cancel and restart
 * at each step.
 */
import 'fake-indexeddb/auto';
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { BINDINGS, CONVERSATION, click, REFS, setUp, statuses, WIRE } from '../../test/action-runner.js';
import { CapabilityError, type ConsentDecision } from '../capabilities/capability-runtime.js';
import type { DslCapabilityBinding } from './action-runner.js';

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
