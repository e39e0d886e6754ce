/** The runtime built-ins' arguments and results: what they accept, and what they refuse. */
import { describe, expect, it } from 'vitest';
import {
  DEADLINE_OPERATION_LIMITS,
  DeadlineOperationArgumentsSchema,
  DeadlineOperationResultSchema,
  OperationInterruptResultSchema,
} from './builtins.js';

const AT = '2026-12-01T08:00:00.000Z';
const LATER = '2026-12-01T08:20:00.000Z';

describe('deadline_operation', () => {
  it.each([
    [{ minutes: 1 }],
    [{ minutes: DEADLINE_OPERATION_LIMITS.maxMinutes }],
    [{ minutes: 20, label: 'meditation' }],
  ])('reads %j', (input) => {
    expect(DeadlineOperationArgumentsSchema.parse(input).minutes).toBe(input.minutes);
  });

  it.each([[{}], [{ minutes: 0 }], [{ minutes: 1.5 }], [{ minutes: '20' }], [{ minutes: 1_441 }]])(
    'refuses %j',
    (input) => {
      expect(DeadlineOperationArgumentsSchema.safeParse(input).success).toBe(false);
    },
  );

  it.each([
    [{ status: 'completed', minutes: 20, started_at: AT, ended_at: LATER }],
    [{ status: 'interrupted', started_at: AT, interrupted_at: LATER, focused_seconds: 1_200, by: 'agent' }],
    [{ status: 'interrupted', started_at: AT, interrupted_at: LATER, focused_seconds: 0, by: 'user_left' }],
    [{ status: 'not_started', reason: 'foreground_not_confirmed' }],
    [{ status: 'not_started', reason: 'cancelled' }],
  ])('answers %j', (result) => {
    expect(DeadlineOperationResultSchema.parse(result)).toEqual(result);
  });

  it.each([
    [{ status: 'completed', minutes: 20, started_at: 'yesterday', ended_at: LATER }],
    [{ status: 'interrupted', started_at: AT, interrupted_at: LATER, focused_seconds: 1, by: 'host' }],
    [{ status: 'not_started', reason: 'cancelled', operation_id: 'op_1' }],
    [{ status: 'paused' }],
  ])('never answers %j', (result) => {
    expect(DeadlineOperationResultSchema.safeParse(result).success).toBe(false);
  });
});

describe('operation_interrupt', () => {
  it.each(['interrupted', 'start_cancelled', 'nothing_to_interrupt'])('answers %s', (status) => {
    expect(OperationInterruptResultSchema.parse({ status })).toEqual({ status });
  });

  it('answers nothing else', () => {
    expect(OperationInterruptResultSchema.safeParse({ status: 'stopped' }).success).toBe(false);
    expect(OperationInterruptResultSchema.safeParse({ status: 'interrupted', at: AT }).success).toBe(false);
  });
});
