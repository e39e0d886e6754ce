/**
 * What the runtime's built-in executors read and answer (seed 003 §4.1 "`runtime` Tool 只能引用 Runtime 内置的受控
 * 执行类型", §7). A tool served by a built-in declares the input the built-in reads and an output schema that
 * accepts the results below; the runtime still checks every final result against the tool's own output schema
 * (`invalid_output` otherwise), so a tool may narrow them but never widen them.
 *
 * `deadline_operation` — an operation with a persisted deadline, started once its activation is ready (for a
 * `foreground_required` tool: once the host confirmed the foreground). It reads `minutes` (a positive integer)
 * from the arguments and ends exactly once:
 * - `completed` at the deadline, with when it started and ended;
 * - `interrupted` by the agent (`operation_interrupt`) or because the user left the app (`user_left`), with how
 *   long it ran;
 * - `not_started`: the app never came to the foreground in time, or the start was cancelled first.
 *
 * `operation_interrupt` — stops what the conversation's app is doing: a running operation (`interrupted`), a
 * start still waiting for its activation (`start_cancelled`), or nothing (`nothing_to_interrupt`).
 */
import { z } from 'zod';

/** Times are ISO 8601 in UTC, as `Date.prototype.toISOString` writes them. */
const instant = () => z.iso.datetime();

export const DEADLINE_OPERATION_LIMITS = Object.freeze({
  /** The longest operation a `deadline_operation` tool may start, in minutes (one day). */
  maxMinutes: 1_440,
} as const);

/** The arguments `deadline_operation` reads; a tool's input may carry more (a label), which it ignores. */
export const DeadlineOperationArgumentsSchema = z
  .looseObject({ minutes: z.int().min(1).max(DEADLINE_OPERATION_LIMITS.maxMinutes) })
  .meta({ id: 'DeadlineOperationArguments' });

/** Who ended a running operation before its deadline. */
export const OPERATION_INTERRUPTERS = ['agent', 'user_left'] as const;
export type OperationInterrupter = (typeof OPERATION_INTERRUPTERS)[number];

/** Why an operation never started. */
export const OPERATION_NOT_STARTED_REASONS = ['foreground_not_confirmed', 'cancelled'] as const;
export type OperationNotStartedReason = (typeof OPERATION_NOT_STARTED_REASONS)[number];

export const DeadlineOperationResultSchema = z
  .discriminatedUnion('status', [
    z.strictObject({
      status: z.literal('completed'),
      minutes: z.int().min(1),
      started_at: instant(),
      ended_at: instant(),
    }),
    z.strictObject({
      status: z.literal('interrupted'),
      started_at: instant(),
      interrupted_at: instant(),
      focused_seconds: z.int().min(0),
      by: z.enum(OPERATION_INTERRUPTERS),
    }),
    z.strictObject({ status: z.literal('not_started'), reason: z.enum(OPERATION_NOT_STARTED_REASONS) }),
  ])
  .meta({ id: 'DeadlineOperationResult' });
export type DeadlineOperationResult = z.infer<typeof DeadlineOperationResultSchema>;

export const OPERATION_INTERRUPT_STATUSES = [
  'interrupted',
  'start_cancelled',
  'nothing_to_interrupt',
] as const;

export const OperationInterruptResultSchema = z
  .strictObject({ status: z.enum(OPERATION_INTERRUPT_STATUSES) })
  .meta({ id: 'OperationInterruptResult' });
export type OperationInterruptResult = z.infer<typeof OperationInterruptResultSchema>;
