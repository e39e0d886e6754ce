/**
 * What the host runs for a capability (seed 000 §5.3): its handler, the error by which a handler fails on purpose,
 * and the run of a handler whose output is checked against the capability's output schema. The handler's own text
 * never reaches the agent: only its stable code does.
 */
import { LineUpError } from '@lineup/shared';
import { type AppResultPayload, AppResultPayloadSchema } from '@lineup/shared/protocol';
import type { CapabilityRecord } from '../storage/database.js';
import { matchesSchema } from '../tools/schema-validator.js';

/** What the host runs for a capability. */
export type CapabilityHandler = (
  args: Readonly<Record<string, unknown>>,
  context: {
    readonly conversationId: string;
    readonly callId: string;
    /** Aborted when the call can no longer complete (the runtime is disposed). */
    readonly signal: AbortSignal;
  },
) => Promise<Record<string, unknown>> | Record<string, unknown>;

/** A handler that fails on purpose: the agent gets `failed` with this stable `code` (and no other text). */
export class CapabilityError extends LineUpError {
  override readonly name = 'CapabilityError';
  constructor(code: string, message = code) {
    super(code, message);
  }
}

/** What running a handler gave: its checked output, or a stable code. */
export type ExecuteOutcome =
  | { readonly ok: true; readonly output: NonNullable<AppResultPayload['result']> }
  | { readonly ok: false; readonly code: string };

/**
 * Runs a capability's handler and checks its output: the output when it matches the output schema (and is a
 * valid `app.result` result), else a stable code — the handler's `CapabilityError` code, `execution_failed` for
 * anything else it threw, `invalid_output`. The handler's own text never leaves.
 */
export async function runCapabilityHandler(
  options: { readonly handlers: Readonly<Record<string, CapabilityHandler>> },
  capability: CapabilityRecord,
  args: Readonly<Record<string, unknown>>,
  context: { readonly conversationId: string; readonly callId: string },
  signal: AbortSignal,
): Promise<ExecuteOutcome> {
  let output: Record<string, unknown>;
  try {
    const handler = options.handlers[capability.name];
    if (handler === undefined) throw new CapabilityError('unknown_capability');
    output = await handler(args, { ...context, signal });
  } catch (error) {
    const code =
      error instanceof CapabilityError && /^[a-z][a-z0-9_]{0,63}$/.test(error.code)
        ? error.code
        : 'execution_failed';
    return { ok: false, code };
  }
  const checked = AppResultPayloadSchema.safeParse({
    call_id: context.callId,
    status: 'completed',
    result: output,
  });
  if (!checked.success || !matchesSchema(capability.output_schema, output) || !checked.data.result)
    return { ok: false, code: 'invalid_output' };
  return { ok: true, output: checked.data.result };
}
