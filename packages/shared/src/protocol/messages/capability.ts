/**
 * `lineup.v1.app.call` (agent → client) and `lineup.v1.app.result` (client → agent), seed 000 §5.3.
 *
 * A call names a capability the latest inventory or `app.list` declared, says why (the host shows the reason
 * to the user before anything runs), and expires. The result reuses the `call_id`; the same `call_id` is
 * idempotent and both are audited by the host. Declaring a capability never grants it (seed 000 §5.2).
 */
import { z } from 'zod';
import type { UIIssueCode } from '../../errors/issues.js';
import { boundedJSONObject } from '../../json/json-data.js';
import {
  CapabilityNameSchema,
  humanText,
  LineUpIdSchema,
  LineUpTokenSchema,
  TimestampSchema,
} from './common.js';
import { resultError } from './issues.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

/** `lineup.v1.app.call` (seed 000 §5.3). */
export const AppCallPayloadSchema = z
  .strictObject({
    call_id: LineUpIdSchema,
    capability: CapabilityNameSchema,
    /** Shown to the user with the capability before they confirm. */
    reason: humanText(LINEUP_WIRE_LIMITS.maxCallReasonLength),
    expires_at: TimestampSchema,
    arguments: boundedJSONObject(LINEUP_WIRE_LIMITS.maxCapabilityDataBytes, 'Call arguments'),
  })
  .meta({ id: 'AppCallPayload' });
export type AppCallPayload = z.infer<typeof AppCallPayloadSchema>;

/** seed 000 §5.3: exactly these six statuses. */
export const APP_RESULT_STATUSES = [
  'completed',
  'rejected',
  'cancelled',
  'expired',
  'unsupported',
  'failed',
] as const;
export type AppResultStatus = (typeof APP_RESULT_STATUSES)[number];

/** Why a call did not complete, for the agent: a stable token (`revoked`, `user_denied`) and text. */
export const AppResultErrorSchema = resultError(LineUpTokenSchema).meta({ id: 'AppResultError' });
export type AppResultError = z.infer<typeof AppResultErrorSchema>;

/**
 * `lineup.v1.app.result` (seed 000 §5.3): `result` only with `completed`; `error` only with another status.
 */
export const AppResultPayloadSchema = z
  .strictObject({
    call_id: LineUpIdSchema,
    status: z.enum(APP_RESULT_STATUSES),
    result: boundedJSONObject(LINEUP_WIRE_LIMITS.maxCapabilityDataBytes, 'A result').exactOptional(),
    error: AppResultErrorSchema.exactOptional(),
  })
  .superRefine((payload, context) => {
    if (payload.status === 'completed' && payload.error !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['error'],
        message: 'A completed call has no error.',
        params: { code: 'unknown_property' satisfies UIIssueCode },
      });
    } else if (payload.status !== 'completed' && payload.result !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['result'],
        message: 'Only a completed call has a result.',
        params: { code: 'unknown_property' satisfies UIIssueCode },
      });
    }
  })
  .meta({ id: 'AppResultPayload' });
export type AppResultPayload = z.infer<typeof AppResultPayloadSchema>;
