/**
 * The `lineup.v1` envelope (seed 000 §3) and the catalogue of every message type it carries.
 *
 * Every agent ↔ client message is `{ v: 1, id, type, conversation_id, sender, target?, payload }`. `target`
 * is optional: the seed's own `ui.open` example (§4.1) has none. Seed 000 names the `ui.*`,
 * `client.inventory` and `app.*` types; the types the seeds leave open — a DSL document, a stream checkpoint,
 * a DSL 1.1 agent callback and its answer (`ui.action`, `ui.action_result`), Agent Tool calls, conversation
 * text (`chat.*`), and the `unsupported` answer — are defined here in the same style (DESIGN.md
 * "Wire messages").
 *
 * `parseEnvelope` sorts what arrives into three outcomes, and nothing is executed on the way:
 * - a known type with a valid payload → `{ kind: 'message', message }`, deep-frozen and typed by `type`;
 * - a well-formed envelope of a type (or a later protocol version) this side does not know →
 *   `{ kind: 'unsupported', … }`, so the caller answers `lineup.v1.unsupported` and never runs it
 *   (seed 000 §3 "未知的 ui.* 或 app.* type 只能安全显示或回复 unsupported，不得执行");
 * - anything else → `LineUpProtocolError` with located, coded issues that echo nothing the sender wrote.
 */
import { z } from 'zod';
import { LineUpProtocolError } from '../errors/errors.js';
import { createIssue, IssueCollector, type UIIssueCode } from '../errors/issues.js';
import { deepFreeze } from '../json/freeze.js';
import { JSONObjectSchema } from '../json/json-data.js';
import { fromZodIssue } from '../json/parse.js';
import { measureSafeJSON, type SafeJSONBudget } from '../json/safe-json.js';
import { UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { UIActionAnswerPayloadSchema, UIActionPayloadSchema } from './messages/action.js';
import { AppCallPayloadSchema, AppResultPayloadSchema } from './messages/capability.js';
import { ChatAgentMessagePayloadSchema, ChatUserMessagePayloadSchema } from './messages/chat.js';
import { LineUpIdSchema, LineUpTokenSchema } from './messages/common.js';
import { UICheckpointPayloadSchema, UIDocumentPayloadSchema } from './messages/document.js';
import { AppListPayloadSchema, ClientInventoryPayloadSchema } from './messages/inventory.js';
import { LINEUP_WIRE_LIMITS } from './messages/limits.js';
import {
  UIClosePayloadSchema,
  UIEventPayloadSchema,
  UIOpenPayloadSchema,
  UIPatchPayloadSchema,
} from './messages/surface.js';
import {
  ToolCallPayloadSchema,
  ToolProgressPayloadSchema,
  ToolResultPayloadSchema,
} from './messages/tool.js';
import { type PrecompiledParser, precompile } from './precompiled.js';

/** The envelope version this module reads and writes. */
export const LINEUP_PROTOCOL_VERSION = 1;

/** `v`: a number first, so a missing `v` reads as missing rather than as a wrong value. */
const versionSchema = () => z.number().pipe(z.literal(LINEUP_PROTOCOL_VERSION));

/** The two ways a message travels (seed 000 §3 "方向"). */
export const LINEUP_DIRECTIONS = ['agent_to_client', 'client_to_agent'] as const;
export type LineUpDirection = (typeof LINEUP_DIRECTIONS)[number];

/** The sending party of each direction; `sender.kind` of a known type must be it. */
const SENDER_KINDS = Object.freeze({
  agent_to_client: ['agent'],
  client_to_agent: ['client'],
  either: ['agent', 'client'],
} as const);

/** A sender or target: `{ kind, id }` (`{"kind":"agent","id":"agent_hermes_main"}`, seed 000 §4.1). */
export const LineUpPartySchema = z
  .strictObject({ kind: LineUpTokenSchema, id: LineUpIdSchema })
  .meta({ id: 'LineUpParty', description: 'kind: snake_case token (agent, client); id: printable ASCII.' });
export type LineUpParty = z.infer<typeof LineUpPartySchema>;

/** A message type: a letter, then letters, digits and `._:-` (`lineup.v1.ui.open`). */
export const LINEUP_MESSAGE_TYPE_PATTERN = /^[A-Za-z][A-Za-z0-9._:-]*$/;

export const LineUpMessageTypeNameSchema = z
  .string()
  .min(1)
  .max(LINEUP_WIRE_LIMITS.maxTypeLength)
  .regex(LINEUP_MESSAGE_TYPE_PATTERN)
  .meta({ id: 'LineUpMessageTypeName' });

/**
 * Any well-formed `lineup.v1` envelope, its payload an opaque JSON object. A known type's message must also
 * pass its own schema (`LineUpMessageSchema`); `parseEnvelope` does both.
 */
export const LineUpEnvelopeSchema = z
  .strictObject({
    v: versionSchema(),
    id: LineUpIdSchema,
    type: LineUpMessageTypeNameSchema,
    conversation_id: LineUpIdSchema,
    sender: LineUpPartySchema,
    target: LineUpPartySchema.exactOptional(),
    payload: JSONObjectSchema,
  })
  .meta({ id: 'LineUpEnvelope' });
export type LineUpEnvelope = z.infer<typeof LineUpEnvelopeSchema>;

/**
 * Why an envelope is answered `unsupported`: a type or version this side does not know, or (for a `ui.open` by
 * reference, seed 000 §5.1) a reference it cannot honour — `unknown_reference` for an app or Surface the
 * inventory never listed, `revoked` for one that was disabled or removed since. Never a fallback.
 */
export const LINEUP_UNSUPPORTED_REASONS = [
  'unknown_type',
  'unsupported_version',
  'unknown_reference',
  'revoked',
] as const;
export type LineUpUnsupportedReason = (typeof LINEUP_UNSUPPORTED_REASONS)[number];

/**
 * `lineup.v1.unsupported` (either direction): the answer to a message this side does not support, naming it
 * by id. It carries the rejected type only as a bounded name, and never any of its payload.
 */
export const UnsupportedPayloadSchema = z
  .strictObject({
    message_id: LineUpIdSchema,
    message_type: LineUpMessageTypeNameSchema.exactOptional(),
    reason: z.enum(LINEUP_UNSUPPORTED_REASONS),
  })
  .meta({ id: 'UnsupportedPayload' });
export type UnsupportedPayload = z.infer<typeof UnsupportedPayloadSchema>;

type CatalogueDirection = keyof typeof SENDER_KINDS;

function messageSchema<const T extends string, const D extends CatalogueDirection, P extends z.ZodType>(
  type: T,
  direction: D,
  payload: P,
  id: string,
) {
  return z
    .strictObject({
      v: versionSchema(),
      id: LineUpIdSchema,
      type: z.literal(type),
      conversation_id: LineUpIdSchema,
      sender: z.strictObject({ kind: z.enum(SENDER_KINDS[direction]), id: LineUpIdSchema }),
      target: LineUpPartySchema.exactOptional(),
      payload,
    })
    .meta({ id });
}

/** Every known message: its schema, by type. The direction of each is stated once, here. */
const MESSAGE_SCHEMAS = {
  'lineup.v1.ui.open': messageSchema(
    'lineup.v1.ui.open',
    'agent_to_client',
    UIOpenPayloadSchema,
    'UIOpenMessage',
  ),
  'lineup.v1.ui.patch': messageSchema(
    'lineup.v1.ui.patch',
    'agent_to_client',
    UIPatchPayloadSchema,
    'UIPatchMessage',
  ),
  'lineup.v1.ui.close': messageSchema(
    'lineup.v1.ui.close',
    'agent_to_client',
    UIClosePayloadSchema,
    'UICloseMessage',
  ),
  'lineup.v1.ui.event': messageSchema(
    'lineup.v1.ui.event',
    'client_to_agent',
    UIEventPayloadSchema,
    'UIEventMessage',
  ),
  'lineup.v1.ui.document': messageSchema(
    'lineup.v1.ui.document',
    'agent_to_client',
    UIDocumentPayloadSchema,
    'UIDocumentMessage',
  ),
  'lineup.v1.ui.checkpoint': messageSchema(
    'lineup.v1.ui.checkpoint',
    'agent_to_client',
    UICheckpointPayloadSchema,
    'UICheckpointMessage',
  ),
  'lineup.v1.ui.action': messageSchema(
    'lineup.v1.ui.action',
    'client_to_agent',
    UIActionPayloadSchema,
    'UIActionMessage',
  ),
  'lineup.v1.ui.action_result': messageSchema(
    'lineup.v1.ui.action_result',
    'agent_to_client',
    UIActionAnswerPayloadSchema,
    'UIActionAnswerMessage',
  ),
  'lineup.v1.client.inventory': messageSchema(
    'lineup.v1.client.inventory',
    'client_to_agent',
    ClientInventoryPayloadSchema,
    'ClientInventoryMessage',
  ),
  'lineup.v1.app.list': messageSchema(
    'lineup.v1.app.list',
    'client_to_agent',
    AppListPayloadSchema,
    'AppListMessage',
  ),
  'lineup.v1.app.call': messageSchema(
    'lineup.v1.app.call',
    'agent_to_client',
    AppCallPayloadSchema,
    'AppCallMessage',
  ),
  'lineup.v1.app.result': messageSchema(
    'lineup.v1.app.result',
    'client_to_agent',
    AppResultPayloadSchema,
    'AppResultMessage',
  ),
  'lineup.v1.tool.call': messageSchema(
    'lineup.v1.tool.call',
    'agent_to_client',
    ToolCallPayloadSchema,
    'ToolCallMessage',
  ),
  'lineup.v1.tool.progress': messageSchema(
    'lineup.v1.tool.progress',
    'client_to_agent',
    ToolProgressPayloadSchema,
    'ToolProgressMessage',
  ),
  'lineup.v1.tool.result': messageSchema(
    'lineup.v1.tool.result',
    'client_to_agent',
    ToolResultPayloadSchema,
    'ToolResultMessage',
  ),
  'lineup.v1.chat.user_message': messageSchema(
    'lineup.v1.chat.user_message',
    'client_to_agent',
    ChatUserMessagePayloadSchema,
    'ChatUserMessage',
  ),
  'lineup.v1.chat.agent_message': messageSchema(
    'lineup.v1.chat.agent_message',
    'agent_to_client',
    ChatAgentMessagePayloadSchema,
    'ChatAgentMessage',
  ),
  'lineup.v1.unsupported': messageSchema(
    'lineup.v1.unsupported',
    'either',
    UnsupportedPayloadSchema,
    'UnsupportedMessage',
  ),
} as const;

type MessageSchemas = typeof MESSAGE_SCHEMAS;
export type LineUpMessageType = keyof MessageSchemas;
/** The message of one known type. */
export type LineUpMessageOf<T extends LineUpMessageType> = z.infer<MessageSchemas[T]>;
/** Any known message; narrow it by `type`. */
export type LineUpMessage = { [T in LineUpMessageType]: LineUpMessageOf<T> }[LineUpMessageType];
/** The payload of one known type. */
export type LineUpPayloadOf<T extends LineUpMessageType> = LineUpMessageOf<T>['payload'];

const { entries: objectEntries, freeze, fromEntries, getOwnPropertyDescriptor, hasOwn } = Object;
const { isArray } = Array;

/** The direction of a known type: one of `LINEUP_DIRECTIONS`, or `either` for `lineup.v1.unsupported`. */
export type LineUpMessageDirection = CatalogueDirection;

function directionOf(schema: MessageSchemas[LineUpMessageType]): CatalogueDirection {
  const kinds = schema.shape.sender.shape.kind.options as readonly string[];
  if (kinds.length > 1) return 'either';
  return kinds[0] === 'agent' ? 'agent_to_client' : 'client_to_agent';
}

/**
 * Every known message type with its direction, so a receiver can refuse a message travelling the wrong way
 * (seed 000 §3).
 */
export const LINEUP_MESSAGE_TYPES: Readonly<
  Record<LineUpMessageType, { readonly direction: LineUpMessageDirection }>
> = freeze(
  fromEntries(
    objectEntries(MESSAGE_SCHEMAS).map(([type, schema]) => [
      type,
      freeze({ direction: directionOf(schema) }),
    ]),
  ) as Record<LineUpMessageType, { readonly direction: LineUpMessageDirection }>,
);

/** The payload schema of every known type. */
export const LINEUP_PAYLOAD_SCHEMAS: {
  readonly [T in LineUpMessageType]: MessageSchemas[T]['shape']['payload'];
} = freeze(
  fromEntries(objectEntries(MESSAGE_SCHEMAS).map(([type, schema]) => [type, schema.shape.payload])) as {
    [T in LineUpMessageType]: MessageSchemas[T]['shape']['payload'];
  },
);

/** The message schema of every known type. */
export const LINEUP_MESSAGE_SCHEMAS: Readonly<MessageSchemas> = freeze({ ...MESSAGE_SCHEMAS });

/** Any known message, discriminated by `type` (for JSON Schema export and typing). */
export const LineUpMessageSchema = z
  .discriminatedUnion(
    'type',
    Object.values(MESSAGE_SCHEMAS) as unknown as [
      MessageSchemas[LineUpMessageType],
      ...MessageSchemas[LineUpMessageType][],
    ],
  )
  .meta({ id: 'LineUpMessage' }) as unknown as z.ZodType<LineUpMessage>;

/** True for the type of a message this module knows. */
export function isLineUpMessageType(type: unknown): type is LineUpMessageType {
  return typeof type === 'string' && hasOwn(MESSAGE_SCHEMAS, type);
}

/** The JSON budget of one envelope: bytes, and the DSL's depth and values plus the seed's shell reserve. */
export const LINEUP_ENVELOPE_BUDGET: SafeJSONBudget = freeze({
  maxBytes: LINEUP_WIRE_LIMITS.maxEnvelopeBytes,
  maxDepth: LINEUP_WIRE_LIMITS.maxEnvelopeDepth,
  maxValues: LINEUP_WIRE_LIMITS.maxEnvelopeValues,
});

export interface ParseEnvelopeOptions {
  /**
   * The direction this receiver accepts: a client passes `agent_to_client`, an agent `client_to_agent`.
   * A known type travelling the other way is rejected at `type`. Omitted: either direction.
   */
  readonly direction?: LineUpDirection;
}

/** A known, valid message. */
export interface ParsedMessage {
  readonly kind: 'message';
  readonly message: LineUpMessage;
}

/**
 * A well-formed envelope this side does not support. Each field is present only if it was valid, so the
 * caller can answer `lineup.v1.unsupported` to `id` in `conversation_id`, addressed to `sender`.
 */
export interface UnsupportedEnvelope {
  readonly kind: 'unsupported';
  readonly reason: LineUpUnsupportedReason;
  readonly id?: string;
  readonly type?: string;
  readonly conversation_id?: string;
  readonly sender?: LineUpParty;
}

export type ParsedEnvelope = ParsedMessage | UnsupportedEnvelope;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !isArray(value);

function fail(path: (string | number)[], code: UIIssueCode, message: string): never {
  throw new LineUpProtocolError([createIssue(path, code, message)]);
}

/**
 * Strict structure of already-safe JSON; zod issues become ours (the `parseShape` conversion). A failure is
 * parsed again with `reportInput`, which keeps the rejected value on each zod issue: that is how
 * `fromZodIssue` tells a wrong type from a missing property (the value never reaches a message). Only the
 * failure pays for it; passing parse options costs zod its fast path on every success.
 */
function check<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const detailed = schema.safeParse(input, { reportInput: true });
  const issues = detailed.success ? result.error.issues : detailed.error.issues;
  throw new LineUpProtocolError(
    issues.slice(0, UI_SCHEMA_LIMITS.maxIssues).map((issue) => fromZodIssue(issue)),
  );
}

/** The header fields of an envelope that pass their own schema; the rest are left out. */
function unsupported(input: Record<string, unknown>, reason: LineUpUnsupportedReason): UnsupportedEnvelope {
  const result: { -readonly [K in keyof UnsupportedEnvelope]: UnsupportedEnvelope[K] } = {
    kind: 'unsupported',
    reason,
  };
  const id = LineUpIdSchema.safeParse(input.id);
  if (id.success) result.id = id.data;
  const type = LineUpMessageTypeNameSchema.safeParse(input.type);
  if (type.success) result.type = type.data;
  const conversation = LineUpIdSchema.safeParse(input.conversation_id);
  if (conversation.success) result.conversation_id = conversation.data;
  const sender = LineUpPartySchema.safeParse(input.sender);
  if (sender.success) result.sender = sender.data;
  return deepFreeze(result);
}

const DIRECTION_TEXT: Readonly<Record<LineUpDirection, string>> = freeze({
  agent_to_client: 'agent to client',
  client_to_agent: 'client to agent',
});

/**
 * Classifies and validates one decoded `lineup.v1` envelope (the value `JSON.parse` returned, or a structured
 * clone). The steps are those of `parseShape` — safe JSON within `LINEUP_ENVELOPE_BUDGET` before anything
 * reads the input, then strict zod, then a deep freeze — with the type dispatch in between:
 *
 * 1. `v` greater than 1 → `unsupported` (`unsupported_version`): a later protocol, never guessed at.
 * 2. A known `type` → direction (with `options.direction`), then the type's closed schema, sender kind
 *    included → `message`.
 * 3. Any other `type` → the closed envelope must hold → `unsupported` (`unknown_type`).
 *
 * Throws `LineUpProtocolError` for everything else: not JSON data, over budget, a malformed envelope, a
 * known type travelling the wrong way or with an invalid payload. The input is never modified.
 *
 * A valid message of a type whose schema `precompile` reads (`ui.event`, `ui.patch`, `tool.call` …) is
 * parsed first by its precompiled parser, which does all of that in one walk and returns the same message, or
 * declines; only what it declines takes the steps above, so results and issues are the same either way.
 */
export function parseEnvelope(input: unknown, options: ParseEnvelopeOptions = {}): ParsedEnvelope {
  const precompiled = precompiledMessage(input);
  if (precompiled !== undefined) {
    // Valid as a whole, so the full path would get as far as the direction, and refuse it there.
    checkDirection(precompiled.type, options.direction);
    return freeze({ kind: 'message', message: precompiled });
  }
  const issues = new IssueCollector();
  if (measureSafeJSON(input, LINEUP_ENVELOPE_BUDGET, issues) === undefined) {
    throw new LineUpProtocolError(issues.issues);
  }
  if (isRecord(input)) {
    const version = input.v;
    if (typeof version === 'number' && Number.isSafeInteger(version) && version > LINEUP_PROTOCOL_VERSION) {
      return unsupported(input, 'unsupported_version');
    }
    const type = input.type;
    if (isLineUpMessageType(type)) {
      checkDirection(type, options.direction);
      const message = check(MESSAGE_SCHEMAS[type] as z.ZodType<LineUpMessage>, input);
      return freeze({ kind: 'message', message: deepFreeze(message) });
    }
  }
  check(LineUpEnvelopeSchema, input);
  return unsupported(input as Record<string, unknown>, 'unknown_type');
}

/** Refuses a known type travelling the other way than `direction` (when given), at `type`. */
function checkDirection(type: LineUpMessageType, accepted: LineUpDirection | undefined): void {
  const { direction } = LINEUP_MESSAGE_TYPES[type];
  if (accepted !== undefined && direction !== 'either' && direction !== accepted) {
    fail(
      ['type'],
      'invalid_value',
      `This message type travels ${DIRECTION_TEXT[direction]}; it is not accepted in this direction.`,
    );
  }
}

/**
 * The precompiled parser of each known type whose schema `precompile` reads (`null`: it does not), made on
 * first use.
 */
const PRECOMPILED = new Map<LineUpMessageType, PrecompiledParser<LineUpMessage> | null>();

/**
 * The fast path of `parseEnvelope` for the common case, a valid message of a known type: the message exactly
 * as the full path would return it (`precompiled.ts`), or `undefined` — for anything else, or in any doubt —
 * and the full path decides. The type is read from an own data property only; its parser checks the rest.
 */
function precompiledMessage(input: unknown): LineUpMessage | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  let type: unknown;
  try {
    type = getOwnPropertyDescriptor(input, 'type')?.value;
  } catch {
    return undefined;
  }
  if (!isLineUpMessageType(type)) return undefined;
  let parser = PRECOMPILED.get(type);
  if (parser === undefined) {
    parser = precompile(MESSAGE_SCHEMAS[type] as z.ZodType<LineUpMessage>, LINEUP_ENVELOPE_BUDGET) ?? null;
    PRECOMPILED.set(type, parser);
  }
  return parser === null ? undefined : parser(input);
}

/**
 * `parseEnvelope` for the JSON text a transport received. Text longer than the envelope budget is refused
 * before it is parsed (a UTF-16 length never exceeds the UTF-8 length), and text that is not JSON is an
 * `invalid_json` issue.
 */
export function parseEnvelopeText(text: string, options: ParseEnvelopeOptions = {}): ParsedEnvelope {
  if (typeof text !== 'string') fail([], 'invalid_type', 'Expected JSON text.');
  if (text.length > LINEUP_WIRE_LIMITS.maxEnvelopeBytes) {
    fail([], 'too_large', `JSON data may be at most ${LINEUP_WIRE_LIMITS.maxEnvelopeBytes} bytes as UTF-8.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail([], 'invalid_json', 'This text is not valid JSON.');
  }
  return parseEnvelope(value, options);
}
