/**
 * `lineup.surface.v1`: the postMessage channel between a host and an agent inline Surface (seed 000 §2, §4.1–
 * §4.3; DESIGN.md "two iframe channels").
 *
 * Up (frame → host), and nothing else:
 * - `ready`  — the injected `LineUpSurface` bridge is listening. The host answers with a `state` message:
 *   seed 000 §4.1 says the bundle receives its state "在 ready 后", and a frame cannot receive before it
 *   listens. A reloaded frame sends `ready` again and gets the current state again.
 * - `event`  — `LineUpSurface.event(name, data)`: a user intent, which the host turns into `ui.event`
 *   (seed 000 §4.2, §2.5). It never calls a capability: a Surface has no `app.call` bridge.
 * - `resize` — `LineUpSurface.resize(height)`: the content height in CSS pixels; the host may clamp it lower.
 *
 * Down (host → frame), and nothing else:
 * - `state`  — the whole `state` of `ui.open` after `ready`, and of every `ui.patch` (seed 000 §4.1, §4.3).
 *   Code is never sent down: `ui.patch` updates state only.
 *
 * The Surface channel never carries a MiniApp message and the MiniApp channel never carries a Surface
 * message: each parser accepts only its own namespace (bridge/miniapp.ts).
 */
import { z } from 'zod';
import { LineUpProtocolError, type UIIssueCode } from '../dsl/errors.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { messageBudget, parseShape } from '../protocol/parse.js';
import { assertInstance, BridgeInstanceIdSchema, namespaceGate } from './channel.js';
import { boundedJSONObject } from './json-data.js';

export const SURFACE_NAMESPACE = 'lineup.surface.v1';

/** Bounds of the Surface channel. */
export const SURFACE_CHANNEL_LIMITS = Object.freeze({
  /** UTF-16 code units of an event name (seed 000 §4.2). */
  maxEventNameLength: 64,
  /** UTF-8 bytes of an event's `data`: seed 000 §4.2 says "小于 16 KiB", so 16,383 at most. */
  maxEventDataBytes: 16 * 1_024 - 1,
  /**
   * UTF-8 bytes of a Surface `state`. Seed 000 gives no figure; a Surface state is bounded like a DSL state
   * object (seed 002 §9), so a host never holds a bigger one.
   */
  maxStateBytes: UI_LIMITS.maxStateBytes,
  /** Largest `resize` height in CSS pixels: taller is a page, not an inline view (a host may clamp lower). */
  maxFrameHeight: 32_768,
  /** UTF-8 bytes the fixed fields of a message may add to its data or state. */
  maxEnvelopeBytes: 1_024,
} as const);

/** seed 000 §4.2: event names are `[A-Za-z][A-Za-z0-9._:-]{0,63}`. */
export const SURFACE_EVENT_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9._:-]{0,63}$/;

/**
 * Names a Surface may not send: the host itself reports a user close as `ui.event` `close` (seed 000 §4.3),
 * so a Surface sending `close` could forge the user's decision.
 */
export const SURFACE_RESERVED_EVENT_NAMES: readonly string[] = Object.freeze(['close']);

export const SurfaceEventNameSchema = z
  .string()
  .max(SURFACE_CHANNEL_LIMITS.maxEventNameLength)
  .regex(SURFACE_EVENT_NAME_PATTERN)
  .refine((name) => !SURFACE_RESERVED_EVENT_NAMES.includes(name), {
    message: 'This event name is reserved for the host.',
    params: { code: 'invalid_value' satisfies UIIssueCode },
  })
  .meta({ id: 'SurfaceEventName', description: '[A-Za-z][A-Za-z0-9._:-]{0,63}, except close.' });

const namespace = z.literal(SURFACE_NAMESPACE);

export const SurfaceReadyMessageSchema = z
  .strictObject({ namespace, type: z.literal('ready'), instance_id: BridgeInstanceIdSchema })
  .meta({ id: 'SurfaceReadyMessage' });

export const SurfaceEventMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('event'),
    instance_id: BridgeInstanceIdSchema,
    event: SurfaceEventNameSchema,
    data: boundedJSONObject(SURFACE_CHANNEL_LIMITS.maxEventDataBytes, 'Event data'),
  })
  .meta({ id: 'SurfaceEventMessage' });

export const SurfaceResizeMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('resize'),
    instance_id: BridgeInstanceIdSchema,
    height: z.number().positive().max(SURFACE_CHANNEL_LIMITS.maxFrameHeight),
  })
  .meta({ id: 'SurfaceResizeMessage' });

export const SurfaceStateMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('state'),
    instance_id: BridgeInstanceIdSchema,
    state: boundedJSONObject(SURFACE_CHANNEL_LIMITS.maxStateBytes, 'Surface state'),
  })
  .meta({ id: 'SurfaceStateMessage' });

/** Every message a Surface frame may send to its host. */
export const SurfaceMessageFromFrameSchema = z
  .discriminatedUnion('type', [
    SurfaceReadyMessageSchema,
    SurfaceEventMessageSchema,
    SurfaceResizeMessageSchema,
  ])
  .meta({ id: 'SurfaceMessageFromFrame' });

/** Every message a host may send to a Surface frame. */
export const SurfaceMessageToFrameSchema = z
  .discriminatedUnion('type', [SurfaceStateMessageSchema])
  .meta({ id: 'SurfaceMessageToFrame' });

export type SurfaceReadyMessage = z.infer<typeof SurfaceReadyMessageSchema>;
export type SurfaceEventMessage = z.infer<typeof SurfaceEventMessageSchema>;
export type SurfaceResizeMessage = z.infer<typeof SurfaceResizeMessageSchema>;
export type SurfaceStateMessage = z.infer<typeof SurfaceStateMessageSchema>;
export type SurfaceMessageFromFrame = z.infer<typeof SurfaceMessageFromFrameSchema>;
export type SurfaceMessageToFrame = z.infer<typeof SurfaceMessageToFrameSchema>;

const FROM_FRAME = namespaceGate(SURFACE_NAMESPACE, SurfaceMessageFromFrameSchema);
const TO_FRAME = namespaceGate(SURFACE_NAMESPACE, SurfaceMessageToFrameSchema);
const FROM_FRAME_BUDGET = messageBudget(
  SURFACE_CHANNEL_LIMITS.maxEventDataBytes + SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes,
);
const TO_FRAME_BUDGET = messageBudget(
  SURFACE_CHANNEL_LIMITS.maxStateBytes + SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes,
);

/**
 * Validates a message a Surface frame posted, for the instance the host mounted in that frame. The caller
 * has already checked that `event.source` is that frame's window. Returns a deep-frozen copy; throws
 * `LineUpProtocolError` for anything else — another channel's message, a wrong instance, a name outside the
 * pattern, data that is not a JSON object under 16 KiB, a height out of range.
 */
export function parseSurfaceMessageFromFrame(
  input: unknown,
  expectedInstanceId: string,
): SurfaceMessageFromFrame {
  return assertInstance(
    parseShape(FROM_FRAME, input, { budget: FROM_FRAME_BUDGET }, LineUpProtocolError),
    expectedInstanceId,
  );
}

/**
 * Validates a message the host posted to a Surface frame (used by the bridge inside the frame). With
 * `expectedInstanceId`, a message for another instance is rejected too.
 */
export function parseSurfaceMessageToFrame(
  input: unknown,
  expectedInstanceId?: string,
): SurfaceMessageToFrame {
  return assertInstance(
    parseShape(TO_FRAME, input, { budget: TO_FRAME_BUDGET }, LineUpProtocolError),
    expectedInstanceId,
  );
}
