/**
 * `lineup.surface.v1`: the postMessage channel between a host and an agent inline Surface (seed 000 §2, §4.1–
 * §4.3; DESIGN.md "two iframe channels").
 *
 * The channel is bound to one document: the frame's `ready` is the only message a host accepts through
 * `window.postMessage`, and it transfers a `MessagePort`; every later message in either direction travels on
 * that port, so the state never reaches a document the host did not create. A host accepts one `ready` per
 * mount. The frame's document is the same for every Surface (so a host can load it before it knows which
 * Surface it will hold): `ready` names no instance, and the host's `start` tells the frame which one it is.
 *
 * Up (frame → host), and nothing else:
 * - `ready`  — the containment and the `LineUpSurface` bridge are listening (with the port). The host answers
 *   with `start`, then `state`: seed 000 §4.1 says the bundle receives its state "在 ready 后".
 * - `event`  — `LineUpSurface.event(name, data)`: a user intent, which the host turns into `ui.event`
 *   (seed 000 §4.2, §2.5). It never calls a capability: a Surface has no `app.call` bridge. At most
 *   `eventBurst` at once and `eventsPerSecond` sustained.
 * - `resize` — `LineUpSurface.resize(height)`: the content height in CSS pixels; the host may clamp it lower.
 * - `violation` — the frame's containment caught the Surface leaving its bounds: `navigation` (it started to
 *   leave or reload its document; the host removes it at once) or `focus` (it took keyboard focus without a
 *   user gesture in the frame; the host takes focus back unless the user moved it there with Tab).
 *
 * Down (host → frame), and nothing else:
 * - `start`  — once, first: the instance id and the bundle's `html`, `css` and `js` (seed 000 §4.1). This is
 *   the only message that carries code; a frame ignores any later one.
 * - `state`  — the whole `state` of `ui.open` after `ready`, and of every `ui.patch` (seed 000 §4.1, §4.3).
 *   `ui.patch` updates state only, never code.
 * - `focus`  — the user moved keyboard focus into the frame from the host (Tab), so the frame may keep it.
 *
 * The Surface channel never carries a MiniApp message and the MiniApp channel never carries a Surface
 * message: each parser accepts only its own namespace (bridge/miniapp.ts).
 *
 * An MCP App view (docs/mcp.md) runs in the same frames under the same containment. Its `start` says
 * `protocol: "mcp_app"` and may carry `modules` (module scripts, run in order after `js`) within the larger bound of a
 * kept view (`MCP_VIEW_CHANNEL_LIMITS.maxViewBytes`); the frame then has no `LineUpSurface` bridge, and the view's
 * JSON-RPC messages travel as `mcp` messages both ways (`message`: one JSON-RPC 2.0 object), read by
 * `parseSurfaceMcpMessage`. A plain Surface never sends or gets `mcp`: the other parsers refuse the type. A view has
 * a `localStorage` its host keeps: `start` may carry what it held (`storage`, `[key, value]` pairs), and after each
 * change the frame sends the whole of it up as a `storage` message (`parseSurfaceStorageMessage`), at most ten times
 * a second. When the user presses Escape in a view, its frame says so (`key`, `parseSurfaceKeyMessage`): the host
 * sees no key of the frame, and Escape must leave a mode the host gave the view (full screen).
 *
 * An installed MiniApp's page runs there too. Its `start` says `protocol: "miniapp"`, may carry `modules`, and
 * carries the page's URL `fragment` (`lineup-instance=<id>&lang=…`, set on the document's URL before the page's
 * scripts run), within `MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes`. Its `lineup.miniapp.v1` messages travel as
 * `page` messages both ways (`message`: one JSON object; the MiniApp channel's own parsers judge it), read by
 * `parseSurfacePageMessage`.
 */
import { z } from 'zod';
import { LineUpProtocolError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import { boundedJSONObject } from '../json/json-data.js';
import { messageBudget, parseShape } from '../json/parse.js';
import { utf8ByteLength } from '../json/safe-json.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { assertInstance, BridgeInstanceIdSchema, namespaceGate } from './channel.js';
import { MAX_ENVELOPE_BYTES, MAX_SESSION_DATA_BYTES } from './miniapp-constants.js';

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
  /** Largest frame `width` a host gives in `start` (CSS pixels). */
  maxFrameWidth: 32_768,
  /** UTF-8 bytes the fixed fields of a message may add to its data or state. */
  maxEnvelopeBytes: 1_024,
  /** Events a Surface may send at once before the rate applies (a token bucket of this size). */
  eventBurst: 20,
  /** Events per second a Surface may send sustained; more are refused by the bridge and dropped by the host. */
  eventsPerSecond: 10,
  /** `resize` messages per second (and at once) a host applies; a bridge sends at most one per animation frame. */
  resizesPerSecond: 60,
  /**
   * Window messages a Surface's frames may send the host at once, and per second after, before the host
   * removes it: a Surface speaks only through its port, and a flood of window messages would delay the host.
   */
  windowMessageBurst: 64,
  windowMessagesPerSecond: 16,
  /** UTF-8 bytes of a bundle's `html` + `css` + `js`: seed 000 §4.1 "160 KiB". */
  maxBundleBytes: 163_840,
} as const);

/**
 * Bounds of an MCP App view in a Surface frame. A kept view of an installed server may be larger than an agent's
 * inline bundle: real views are single HTML files of 200 KiB to 4.1 MiB that inline their framework (as large as a
 * MiniApp page may be, 8 MiB); a host sets its own bound at most `maxViewBytes`. A JSON-RPC message is at most `maxMessageBytes` (a tool result of the server, 1 MiB,
 * and its envelope); a view may send `messageBurst` at once and `messagesPerSecond` sustained.
 */
export const MCP_VIEW_CHANNEL_LIMITS = Object.freeze({
  maxViewBytes: 8_388_608,
  maxMessageBytes: 1_050_624,
  messageBurst: 64,
  messagesPerSecond: 32,
  /**
   * A view's `localStorage` (its state a host keeps, `storage` of `start` and of the frame's `storage` messages):
   * at most this many UTF-16 code units of keys and values together, and `maxStorageItems` items.
   */
  maxStorageLength: 65_536,
  maxStorageItems: 1_024,
} as const);

/**
 * Bounds of an installed MiniApp's page in a Surface frame. `maxPageBytes`: its HTML, CSS and scripts together,
 * with its images inlined as `data:` URLs — at most one bundle file's size (`BUNDLE_LIMITS.maxFileBytes`, 8 MiB).
 * `maxMessageBytes`: one `lineup.miniapp.v1` message, whose largest is a whole session data snapshot with its
 * envelope. `maxFragmentLength`: the page's URL fragment, in UTF-16 code units.
 */
export const MINIAPP_PAGE_CHANNEL_LIMITS = Object.freeze({
  maxPageBytes: 8_388_608,
  maxMessageBytes: MAX_SESSION_DATA_BYTES + MAX_ENVELOPE_BYTES,
  maxFragmentLength: 2_048,
  messageBurst: 64,
  messagesPerSecond: 32,
} as const);

/**
 * The protocols a Surface frame speaks: none (a Surface, with `LineUpSurface`), an MCP App view's, or an installed
 * MiniApp page's.
 */
export const SURFACE_FRAME_PROTOCOLS = Object.freeze(['mcp_app', 'miniapp'] as const);

/** What a frame's containment reports (`violation` messages). */
export const SURFACE_VIOLATION_KINDS = Object.freeze(['navigation', 'focus'] as const);
export type SurfaceViolationKind = (typeof SURFACE_VIOLATION_KINDS)[number];

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
  .strictObject({ namespace, type: z.literal('ready') })
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

/** One JSON-RPC 2.0 message of an MCP App view: an object with `jsonrpc: "2.0"`, within the message bound. */
const JsonRpcMessageSchema = boundedJSONObject(
  MCP_VIEW_CHANNEL_LIMITS.maxMessageBytes,
  'A JSON-RPC message',
).superRefine((message, context) => {
  if (message.jsonrpc !== '2.0')
    context.addIssue({
      code: 'custom',
      path: ['jsonrpc'],
      message: 'A JSON-RPC message says jsonrpc "2.0".',
      params: { code: 'invalid_value' satisfies UIIssueCode },
    });
});

/**
 * An MCP App view's `localStorage` as `[key, value]` pairs of strings, each key once, within
 * `MCP_VIEW_CHANNEL_LIMITS.maxStorageLength` code units and `maxStorageItems` items: pairs, not an object, so that
 * no key (`__proto__`, say) is ever a property name on the host.
 */
export const McpViewStorageSchema = z
  .array(z.tuple([z.string(), z.string()]))
  .max(MCP_VIEW_CHANNEL_LIMITS.maxStorageItems)
  .superRefine((entries, context) => {
    const keys = new Set<string>();
    let length = 0;
    for (const [index, [key, value]] of entries.entries()) {
      length += key.length + value.length;
      if (keys.has(key)) {
        context.addIssue({
          code: 'custom',
          path: [index, 0],
          message: 'A key appears once in a view storage.',
          params: { code: 'invalid_value' satisfies UIIssueCode },
        });
        return;
      }
      keys.add(key);
    }
    if (length > MCP_VIEW_CHANNEL_LIMITS.maxStorageLength)
      context.addIssue({
        code: 'custom',
        message: `A view storage holds at most ${MCP_VIEW_CHANNEL_LIMITS.maxStorageLength} UTF-16 code units of keys and values.`,
        params: { code: 'too_large' satisfies UIIssueCode },
      });
  })
  .meta({
    id: 'McpViewStorage',
    description: "An MCP App view's localStorage: [key, value] pairs of strings, each key once, bounded.",
  });
export type McpViewStorage = z.infer<typeof McpViewStorageSchema>;

/** An MCP App view's JSON-RPC message, either way (`start` said `protocol: "mcp_app"`). */
export const SurfaceMcpMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('mcp'),
    instance_id: BridgeInstanceIdSchema,
    message: JsonRpcMessageSchema,
  })
  .meta({ id: 'SurfaceMcpMessage' });

/** A MiniApp page's `lineup.miniapp.v1` message, either way (`start` said `protocol: "miniapp"`). */
export const SurfacePageMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('page'),
    instance_id: BridgeInstanceIdSchema,
    message: boundedJSONObject(MINIAPP_PAGE_CHANNEL_LIMITS.maxMessageBytes, 'A MiniApp message'),
  })
  .meta({ id: 'SurfacePageMessage' });

export const SurfaceViolationMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('violation'),
    instance_id: BridgeInstanceIdSchema,
    kind: z.enum(SURFACE_VIOLATION_KINDS),
  })
  .meta({ id: 'SurfaceViolationMessage' });

const bundleText = () => z.string().max(MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes);
const viewText = () => z.string().max(MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes);

export const SurfaceStartMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('start'),
    instance_id: BridgeInstanceIdSchema,
    html: bundleText(),
    css: bundleText(),
    js: bundleText(),
    /**
     * The frame's width in CSS pixels as the host laid it out, when it has one: a frame loaded ahead and just
     * moved into place runs the bundle only once its document is that wide (or its size changed again).
     */
    width: z.number().int().positive().max(SURFACE_CHANNEL_LIMITS.maxFrameWidth).optional(),
    /**
     * `mcp_app`: an MCP App view, which speaks JSON-RPC in `mcp` messages; `miniapp`: an installed MiniApp's page,
     * which speaks `lineup.miniapp.v1` in `page` messages. Neither has `LineUpSurface` or gets a state.
     */
    protocol: z.enum(SURFACE_FRAME_PROTOCOLS).optional(),
    /** A view's or a page's module scripts, run in order after `js`. */
    modules: z.array(viewText()).max(64).optional(),
    /** A MiniApp page's URL fragment (`lineup-instance=<id>&…`), set on its document's URL before its scripts run. */
    fragment: z.string().max(MINIAPP_PAGE_CHANNEL_LIMITS.maxFragmentLength).optional(),
    /** An MCP App view's `localStorage` as its host kept it, there before the view's scripts run. */
    storage: McpViewStorageSchema.optional(),
  })
  .superRefine((message, context) => {
    const bytes =
      utf8ByteLength(message.html) +
      utf8ByteLength(message.css) +
      utf8ByteLength(message.js) +
      (message.modules ?? []).reduce((sum, text) => sum + utf8ByteLength(text), 0);
    const [max, what] =
      message.protocol === 'mcp_app'
        ? [MCP_VIEW_CHANNEL_LIMITS.maxViewBytes, "A view's html, css and scripts"]
        : message.protocol === 'miniapp'
          ? [MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes, "A MiniApp page's html, css and scripts"]
          : [SURFACE_CHANNEL_LIMITS.maxBundleBytes, "A bundle's html, css and js"];
    if (bytes > max)
      context.addIssue({
        code: 'custom',
        message: `${what} may be at most ${max} bytes together as UTF-8.`,
        params: { code: 'too_large' satisfies UIIssueCode },
      });
    if (message.protocol === undefined && message.modules !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['modules'],
        message: 'Only an MCP App view or a MiniApp page (a protocol) has module scripts.',
        params: { code: 'unknown_property' satisfies UIIssueCode },
      });
    if (message.protocol !== 'miniapp' && message.fragment !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['fragment'],
        message: 'Only a MiniApp page (protocol miniapp) has a URL fragment.',
        params: { code: 'unknown_property' satisfies UIIssueCode },
      });
    if (message.protocol !== 'mcp_app' && message.storage !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['storage'],
        message: 'Only an MCP App view (protocol mcp_app) has a kept storage.',
        params: { code: 'unknown_property' satisfies UIIssueCode },
      });
  })
  .meta({ id: 'SurfaceStartMessage' });

export const SurfaceFocusMessageSchema = z
  .strictObject({ namespace, type: z.literal('focus'), instance_id: BridgeInstanceIdSchema })
  .meta({ id: 'SurfaceFocusMessage' });

/** Every message a Surface frame may send to its host. */
export const SurfaceMessageFromFrameSchema = z
  .discriminatedUnion('type', [
    SurfaceReadyMessageSchema,
    SurfaceEventMessageSchema,
    SurfaceResizeMessageSchema,
    SurfaceViolationMessageSchema,
  ])
  .meta({ id: 'SurfaceMessageFromFrame' });

/** Every message a host may send to a Surface frame. */
export const SurfaceMessageToFrameSchema = z
  .discriminatedUnion('type', [
    SurfaceStartMessageSchema,
    SurfaceStateMessageSchema,
    SurfaceFocusMessageSchema,
  ])
  .meta({ id: 'SurfaceMessageToFrame' });

export type SurfaceReadyMessage = z.infer<typeof SurfaceReadyMessageSchema>;
export type SurfaceEventMessage = z.infer<typeof SurfaceEventMessageSchema>;
export type SurfaceResizeMessage = z.infer<typeof SurfaceResizeMessageSchema>;
export type SurfaceStateMessage = z.infer<typeof SurfaceStateMessageSchema>;
export type SurfaceViolationMessage = z.infer<typeof SurfaceViolationMessageSchema>;
export type SurfaceFocusMessage = z.infer<typeof SurfaceFocusMessageSchema>;
export type SurfaceStartMessage = z.infer<typeof SurfaceStartMessageSchema>;
export type SurfaceMcpMessage = z.infer<typeof SurfaceMcpMessageSchema>;
export type SurfacePageMessage = z.infer<typeof SurfacePageMessageSchema>;
export type SurfaceMessageFromFrame = z.infer<typeof SurfaceMessageFromFrameSchema>;
export type SurfaceMessageToFrame = z.infer<typeof SurfaceMessageToFrameSchema>;

const FROM_FRAME = namespaceGate(SURFACE_NAMESPACE, SurfaceMessageFromFrameSchema);
const TO_FRAME = namespaceGate(SURFACE_NAMESPACE, SurfaceMessageToFrameSchema);
const FROM_FRAME_BUDGET = messageBudget(
  SURFACE_CHANNEL_LIMITS.maxEventDataBytes + SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes,
);
const TO_FRAME_BUDGET = messageBudget(
  Math.max(SURFACE_CHANNEL_LIMITS.maxStateBytes, MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes) +
    SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes,
);
const MCP = namespaceGate(SURFACE_NAMESPACE, SurfaceMcpMessageSchema);
const MCP_BUDGET = messageBudget(
  MCP_VIEW_CHANNEL_LIMITS.maxMessageBytes + SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes,
);

/**
 * Validates an `mcp` message of an MCP App view's frame (either way), for the instance the host mounted: one
 * JSON-RPC 2.0 object within `MCP_VIEW_CHANNEL_LIMITS.maxMessageBytes`. A plain Surface's parsers refuse the type,
 * so only a host that started a view (`protocol: "mcp_app"`) reads these. Returns a deep-frozen copy; throws
 * `LineUpProtocolError`.
 */
export function parseSurfaceMcpMessage(input: unknown, expectedInstanceId?: string): SurfaceMcpMessage {
  return assertInstance(
    parseShape(MCP, input, { budget: MCP_BUDGET }, LineUpProtocolError),
    expectedInstanceId,
  );
}

const PAGE = namespaceGate(SURFACE_NAMESPACE, SurfacePageMessageSchema);
const PAGE_BUDGET = messageBudget(
  MINIAPP_PAGE_CHANNEL_LIMITS.maxMessageBytes + SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes,
);

/**
 * Validates a `page` message of a MiniApp page's frame (either way), for the instance the host mounted: one JSON
 * object within `MINIAPP_PAGE_CHANNEL_LIMITS.maxMessageBytes` — what it says is the MiniApp channel's to judge
 * (`parseMiniAppMessageFromFrame`). Only a host that started a page (`protocol: "miniapp"`) reads these. Returns
 * a deep-frozen copy; throws `LineUpProtocolError`.
 */
export function parseSurfacePageMessage(input: unknown, expectedInstanceId?: string): SurfacePageMessage {
  return assertInstance(
    parseShape(PAGE, input, { budget: PAGE_BUDGET }, LineUpProtocolError),
    expectedInstanceId,
  );
}

/**
 * Validates a message a Surface frame posted, for the instance the host mounted in that frame (`ready` names
 * none). The caller has already checked that it came from that frame (its window for `ready`, its port for
 * the rest). Returns a deep-frozen copy; throws `LineUpProtocolError` for anything else — another channel's
 * message, a wrong instance, a name outside the pattern, data that is not a JSON object under 16 KiB, a
 * height out of range.
 */
export function parseSurfaceMessageFromFrame(
  input: unknown,
  expectedInstanceId?: string,
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
