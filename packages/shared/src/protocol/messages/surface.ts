/**
 * Payloads of the UI Surface messages (seed 000 §3, §4): `ui.open`, `ui.patch`, `ui.close` (agent → client)
 * and `ui.event` (client → agent). A Surface is untrusted content that only a sandboxed `srcdoc` frame ever
 * sees (seed 000 §2); these schemas bound it and keep code out of every message but `ui.open`.
 *
 * The instance id, event name pattern and the sizes of event data and state are those of the
 * `lineup.surface.v1` channel (bridge/surface.ts), so what passes here can be delivered there unchanged.
 */
import { z } from 'zod';
import { BridgeInstanceIdSchema } from '../../bridge/channel.js';
import { SURFACE_CHANNEL_LIMITS, SURFACE_EVENT_NAME_PATTERN } from '../../bridge/surface.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { boundedJSONObject } from '../../json/json-data.js';
import { utf8ByteLength } from '../../json/safe-json.js';
import {
  AppIdSchema,
  DisplayNameSchema,
  IntegritySchema,
  LineUpTokenSchema,
  LOCAL_NAME_PATTERN,
  SemVerSchema,
} from './common.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

/** seed 000 §4.1: `[A-Za-z0-9._:-]{1,128}`, unique within a conversation; reopening an id replaces it. */
export const SurfaceInstanceIdSchema = BridgeInstanceIdSchema;

/**
 * seed 000 §4.2: `[A-Za-z][A-Za-z0-9._:-]{0,63}`. Unlike the frame's own channel, `close` is allowed here:
 * it is how the client reports that the user closed the Surface (seed 000 §4.3).
 */
export const UIEventNameSchema = z
  .string()
  .min(1)
  .max(SURFACE_CHANNEL_LIMITS.maxEventNameLength)
  .regex(SURFACE_EVENT_NAME_PATTERN)
  .meta({ id: 'UIEventName', description: '[A-Za-z][A-Za-z0-9._:-]{0,63}; close reports a user close.' });

/** The event a client sends when the user closes a Surface (seed 000 §4.3). */
export const UI_USER_CLOSE_EVENT = 'close';

/** seed 000 §4.1: a Surface `state` is a JSON object, delivered after `ready` and on every `ui.patch`. */
const surfaceState = () => boundedJSONObject(SURFACE_CHANNEL_LIMITS.maxStateBytes, 'Surface state');

/** Bundle text (`html`, `css`, `js`): bounded per field first, then in total by the bundle check. */
const bundleText = () => z.string().max(LINEUP_WIRE_LIMITS.maxBundleBytes);

/**
 * seed 000 §4.1: an inline Surface bundle — app identity, version and optional integrity, and its html, css
 * and js. The three texts together are at most 160 KiB as UTF-8 (the size of the files the author wrote).
 */
export const SurfaceBundleSchema = z
  .strictObject({
    id: AppIdSchema,
    name: DisplayNameSchema,
    version: SemVerSchema,
    integrity: IntegritySchema.exactOptional(),
    html: bundleText(),
    css: bundleText(),
    js: bundleText(),
  })
  .superRefine((bundle, context) => {
    const bytes = utf8ByteLength(bundle.html) + utf8ByteLength(bundle.css) + utf8ByteLength(bundle.js);
    if (bytes > LINEUP_WIRE_LIMITS.maxBundleBytes) {
      context.addIssue({
        code: 'custom',
        message: `A bundle's html, css and js may be at most ${LINEUP_WIRE_LIMITS.maxBundleBytes} bytes together as UTF-8.`,
        params: { code: 'too_large' satisfies UIIssueCode },
      });
    }
  })
  .meta({ id: 'SurfaceBundle' });
export type SurfaceBundle = z.infer<typeof SurfaceBundleSchema>;

/** A declared Surface's id: a letter, then letters, digits, `_` and `-` (`canvas`, seed 000 §5.1). */
export const SurfaceIdSchema = z
  .string()
  .min(1)
  .max(LINEUP_WIRE_LIMITS.maxTokenLength)
  .regex(LOCAL_NAME_PATTERN)
  .meta({ id: 'SurfaceId', description: 'A letter, then letters, digits, _ and -; at most 64 characters.' });

/**
 * A declared Surface of an enabled application, named by app id and surface id as `client.inventory` lists
 * them (seed 000 §5.1: "只允许 Agent 以 app id 创建受限 Surface"). The client loads the bundle it verified
 * and installed, never one the agent sends.
 */
export const SurfaceReferenceSchema = z
  .strictObject({
    app_id: AppIdSchema,
    surface_id: SurfaceIdSchema,
  })
  .meta({ id: 'SurfaceReference' });
export type SurfaceReference = z.infer<typeof SurfaceReferenceSchema>;

/**
 * `lineup.v1.ui.open` (seed 000 §4.1): EITHER an inline bundle in `app` OR a `surface` reference, never both,
 * and the initial `state`.
 */
export const UIOpenPayloadSchema = z
  .strictObject({
    instance_id: SurfaceInstanceIdSchema,
    app: SurfaceBundleSchema.exactOptional(),
    surface: SurfaceReferenceSchema.exactOptional(),
    state: surfaceState(),
  })
  .superRefine((payload, context) => {
    if (payload.app !== undefined && payload.surface !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['surface'],
        message: 'Give either an inline bundle (app) or a surface reference (surface), not both.',
        params: { code: 'invalid_value' satisfies UIIssueCode },
      });
    } else if (payload.app === undefined && payload.surface === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['app'],
        message: 'Either an inline bundle (app) or a surface reference (surface) is required.',
        params: { code: 'missing_property' satisfies UIIssueCode },
      });
    }
  })
  .meta({ id: 'UIOpenPayload' });
export type UIOpenPayload = z.infer<typeof UIOpenPayloadSchema>;

/**
 * `lineup.v1.ui.patch` (seed 000 §4.1, §4.3): the instance and its new `state`, nothing else. The object is
 * closed, so `html`, `css`, `js` or `app` are rejected: to change code, close and open a new version.
 */
export const UIPatchPayloadSchema = z
  .strictObject({ instance_id: SurfaceInstanceIdSchema, state: surfaceState() })
  .meta({ id: 'UIPatchPayload' });
export type UIPatchPayload = z.infer<typeof UIPatchPayloadSchema>;

/** seed 000 §4.3: why the agent closed an instance, as a token (`completed`). */
export const UICloseReasonSchema = LineUpTokenSchema;

/** `lineup.v1.ui.close` (seed 000 §4.3). */
export const UIClosePayloadSchema = z
  .strictObject({ instance_id: SurfaceInstanceIdSchema, reason: UICloseReasonSchema })
  .meta({ id: 'UIClosePayload' });
export type UIClosePayload = z.infer<typeof UIClosePayloadSchema>;

/**
 * `lineup.v1.ui.event` (seed 000 §4.2): a user intent from a Surface, or the user closing it (`close`).
 * `data` is a JSON object under 16 KiB.
 */
export const UIEventPayloadSchema = z
  .strictObject({
    instance_id: SurfaceInstanceIdSchema,
    event: UIEventNameSchema,
    data: boundedJSONObject(SURFACE_CHANNEL_LIMITS.maxEventDataBytes, 'Event data'),
  })
  .meta({ id: 'UIEventPayload' });
export type UIEventPayload = z.infer<typeof UIEventPayloadSchema>;
