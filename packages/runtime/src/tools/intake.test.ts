/** Receiving Agent Tool calls (the pipeline's steps 1–3: envelope-check, tool-check, intake) against fake-indexeddb. */
import 'fake-indexeddb/auto';
import { ToolResultPayloadSchema } from '@lineup/shared/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { pomodoroManifest, pomodoroTool } from '../../test/manifests.js';
import { AppRegistry } from '../apps/registry.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { ToolCallIntake } from './intake.js';

const MANIFEST = pomodoroManifest({
  tools: [
    pomodoroTool('start', {
      input_schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { minutes: { type: 'integer', minimum: 1, maximum: 180 } },
        required: ['minutes'],
        additionalProperties: false,
      },
      call_model: 'operation',
      activation: 'foreground_required',
      executor: { kind: 'runtime', builtin: 'deadline_operation' },
    }),
  ],
});

let db: RuntimeDatabase;
let registry: AppRegistry;
let intake: ToolCallIntake;
let n = 0;

beforeEach(async () => {
  db = await openRuntimeDatabase(`intake-test-${n++}`);
  registry = new AppRegistry(db, { clock: { now: () => 1_000 } });
  await registry.install(MANIFEST, { bundleUrl: '/apps/pomodoro/' });
  intake = new ToolCallIntake(db, registry, { clock: { now: () => 2_000 } });
});

const call = (overrides: object = {}) => ({
  call_id: 'call_1',
  inventory_revision: 'inventory-1',
  tool: 'pomodoro.start',
  arguments: { minutes: 20 },
  ...overrides,
});

const stored = async () => ({
  calls: await db.count('tool_calls'),
  outbox: await db.count('outbox'),
  audit: await db.count('audit'),
});

describe('ToolCallIntake', () => {
  it('accepts a valid call: persists it, audits it and queues the accepted receipt in one go', async () => {
    const before = await stored();
    const { answer, disposition } = await intake.receive('conv_1', call());
    expect(disposition).toBe('accepted');
    expect(answer).toEqual({
      type: 'lineup.v1.tool.progress',
      payload: { call_id: 'call_1', app_scope: 'pomodoro', status: 'accepted' },
    });
    expect(await stored()).toEqual({
      calls: before.calls + 1,
      outbox: before.outbox + 1,
      audit: before.audit + 1,
    });
    const outbox = await db.getAll('outbox');
    expect(outbox.at(-1)).toMatchObject({ conversationId: 'conv_1', pending: 1, ...answer });
    expect((await db.getAll('audit')).at(-1)).toMatchObject({
      type: 'tool_call_accepted',
      callId: 'call_1',
      conversationId: 'conv_1',
    });
  });

  it.each([
    ['a stale inventory revision', { inventory_revision: 'inventory-0' }, 'stale_inventory'],
    ['a tool not in the inventory', { tool: 'pomodoro.pause' }, 'unsupported'],
    ['arguments outside the input schema', { arguments: { minutes: 0 } }, 'invalid_arguments'],
    ['extra arguments', { arguments: { minutes: 5, instance_id: 'x' } }, 'invalid_arguments'],
    ['missing arguments', { arguments: {} }, 'invalid_arguments'],
  ])('refuses %s with a persisted final error', async (_, overrides, code) => {
    const { answer, disposition } = await intake.receive('conv_1', call(overrides));
    expect(disposition).toBe('rejected');
    expect(answer).toMatchObject({
      type: 'lineup.v1.tool.result',
      payload: { call_id: 'call_1', outcome: 'error', error: { code } },
    });
    expect((await db.getAll('outbox')).at(-1)).toMatchObject(answer);
    // The replay of a refused call gets the same answer, without a new outbox row.
    const outbox = await db.count('outbox');
    expect(await intake.receive('conv_1', call(overrides))).toEqual({ answer, disposition: 'replayed' });
    expect(await db.count('outbox')).toBe(outbox);
  });

  it.each([
    [
      'a number below the minimum',
      { minutes: 0 },
      [
        {
          path: 'payload.arguments.minutes',
          code: 'number_out_of_range',
          message: 'Below the minimum of 1.',
        },
      ],
      'minutes: number_out_of_range (at least 1 and at most 180)',
    ],
    [
      'an extra argument',
      { minutes: 5, instance_id: 'secret-value' },
      [
        {
          path: 'payload.arguments.instance_id',
          code: 'unknown_property',
          message: 'Not in the schema, which has: minutes.',
        },
      ],
      'instance_id: unknown_property (not in the schema, which has: minutes)',
    ],
    [
      'a missing argument',
      {},
      [
        {
          path: 'payload.arguments.minutes',
          code: 'missing_property',
          message: 'Required: expected integer.',
        },
      ],
      'minutes: missing_property (expected integer)',
    ],
    [
      'a wrong type',
      { minutes: 'five' },
      [{ path: 'payload.arguments.minutes', code: 'invalid_type', message: 'Expected integer.' }],
      'minutes: invalid_type (expected integer)',
    ],
  ])(
    'says where the arguments fail the schema (%s), never what they were',
    async (_, args, issues, places) => {
      const { answer } = await intake.receive('conv_1', call({ arguments: args }));
      expect(answer.payload).toMatchObject({
        outcome: 'error',
        error: { code: 'invalid_arguments', issues },
      });
      // The message names them too, as the SDK does: what the Agent console shows.
      expect(answer.payload).toMatchObject({
        error: { message: `The arguments do not match the tool's input schema: ${places}.` },
      });
      expect(JSON.stringify(answer)).not.toMatch(/secret-value|five/);
      // What the agent gets is what the protocol admits.
      expect(ToolResultPayloadSchema.safeParse(answer.payload).success).toBe(true);
    },
  );

  it('answers a replayed call_id with the persisted answer and executes nothing new', async () => {
    const first = await intake.receive('conv_1', call());
    const before = await stored();
    expect(await intake.receive('conv_1', call())).toEqual({ answer: first.answer, disposition: 'replayed' });
    expect(await stored()).toEqual(before);
  });

  it('refuses the same call_id with other content, leaving the first call as it was', async () => {
    const first = await intake.receive('conv_1', call());
    const before = await stored();
    const conflict = await intake.receive('conv_1', call({ arguments: { minutes: 25 } }));
    expect(conflict).toMatchObject({
      disposition: 'conflict',
      answer: { payload: { outcome: 'error', error: { code: 'call_id_conflict' } } },
    });
    expect(await stored()).toEqual(before);
    expect(await intake.receive('conv_1', call())).toEqual({ answer: first.answer, disposition: 'replayed' });
  });

  it('compares a replay by content, not by how its arguments were written: key order does not count', async () => {
    const first = await intake.receive('conv_1', call({ arguments: { minutes: 25, label: 'x' } as never }));
    expect(first.disposition).toBe('rejected'); // `label` is not in the schema: refused, and recorded so
    expect(await intake.receive('conv_1', call({ arguments: { label: 'x', minutes: 25 } as never }))).toEqual(
      {
        answer: first.answer,
        disposition: 'replayed',
      },
    );
    for (const other of [
      call({ arguments: { minutes: 25, label: 'y' } as never }),
      call({ arguments: { minutes: 25 } }),
      call({ tool: 'pomodoro.other', arguments: { minutes: 25, label: 'x' } as never }),
      call({ inventory_revision: 'inventory-9', arguments: { minutes: 25, label: 'x' } as never }),
    ])
      expect((await intake.receive('conv_1', other)).disposition).toBe('conflict');
  });

  it('tells a replay from a conflict for a record written with a content digest (before 2026-12-06)', async () => {
    await intake.receive('conv_1', call());
    const key = 'conv_1\ncall_1';
    const record = await db.get('tool_calls', key);
    if (record === undefined) throw new Error('not recorded');
    expect(record.contentHash).toBeUndefined();
    // As an older runtime wrote it: the digest of the call's tool, revision and arguments.
    const { hashCanonicalJSON } = await import('@lineup/shared');
    const { call: payload } = record;
    await db.put('tool_calls', {
      ...record,
      contentHash: hashCanonicalJSON({
        tool: payload.tool,
        inventory_revision: payload.inventory_revision,
        arguments: payload.arguments,
      }),
      // A digest is what counts for such a record, not the call it kept.
      call: { ...payload, arguments: { minutes: 99 } },
    });
    expect((await intake.receive('conv_1', call())).disposition).toBe('replayed');
    expect((await intake.receive('conv_1', call({ arguments: { minutes: 99 } }))).disposition).toBe(
      'conflict',
    );
  });

  it('keeps call ids apart per conversation', async () => {
    await intake.receive('conv_1', call());
    expect((await intake.receive('conv_2', call())).disposition).toBe('accepted');
  });

  it('refuses a tool whose app was disabled since (the revision moved on)', async () => {
    await registry.setEnabled('com.lineup.pomodoro', false);
    expect((await intake.receive('conv_1', call())).answer.payload).toMatchObject({
      error: { code: 'stale_inventory' },
    });
    expect(
      (await intake.receive('conv_1', call({ call_id: 'call_2', inventory_revision: 'inventory-2' }))).answer
        .payload,
    ).toMatchObject({
      error: { code: 'unsupported' },
    });
  });
});
