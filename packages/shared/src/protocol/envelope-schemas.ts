/**
 * The `lineup.v1` envelope's schemas (seed 000 §3) and the catalogue of every message type it carries: each
 * known type with its closed message schema and its direction, stated once. `envelope.ts` parses envelopes
 * against them and re-exports all of this module.
 *
 * Every agent ↔ client message is `{ v: 1, id, type, conversation_id, sender, target?, payload }`. `target`
 * is optional: the seed's own `ui.open` example (§4.1) has none. Seed 000 names the `ui.*`,
 * `client.inventory` and `app.*` types; the types the seeds leave open — a DSL document, a stream checkpoint,
 * a DSL 1.1 agent callback and its answer (`ui.action`, `ui.action_result`), Agent Tool calls, conversation
 * text (`chat.*`), and the `unsupported` answer — are defined here in the same style (DESIGN.md
 * "Wire messages").
 */
import { z } from 'zod';
import type { UIIssueCode } from '../errors/issues.js';
import { JSONObjectSchema } from '../json/json-data.js';
import { UIActionAnswerPayloadSchema, UIActionPayloadSchema } from './messages/action.js';
import { AppCallPayloadSchema, AppResultPayloadSchema } from './messages/capability.js';
import { ChatAgentMessagePayloadSchema, ChatUserMessagePayloadSchema } from './messages/chat.js';
import { LineUpIdSchema, LineUpTokenSchema } from './messages/common.js';
import { UICheckpointPayloadSchema, UIDocumentPayloadSchema } from './messages/document.js';
import { AppListPayloadSchema, ClientInventoryPayloadSchema } from './messages/inventory.js';
import { LineUpIssueListSchema } from './messages/issues.js';
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
 * `invalid_message`: the envelope's id and conversation were readable but the message was refused — its payload
 * or a header field invalid, its document or stream frame refused by the receiver (`issues` says where).
 * `unknown_conversation`: the conversation is not one of this side's session (the client announced it with no
 * `client.inventory` on this connection); nothing was recorded or shown.
 */
export const LINEUP_UNSUPPORTED_REASONS = [
  'unknown_type',
  'unsupported_version',
  'unknown_reference',
  'revoked',
  'invalid_message',
  'unknown_conversation',
] as const;
export type LineUpUnsupportedReason = (typeof LINEUP_UNSUPPORTED_REASONS)[number];

/**
 * `lineup.v1.unsupported` (either direction): the answer to a message this side does not support or refused,
 * naming it by id. It carries the rejected type only as a bounded name, never any of its payload; with
 * `invalid_message`, and only then, the located `issues` (paths and codes, at most 10, nothing the sender wrote).
 */
export const UnsupportedPayloadSchema = z
  .strictObject({
    message_id: LineUpIdSchema,
    message_type: LineUpMessageTypeNameSchema.exactOptional(),
    reason: z.enum(LINEUP_UNSUPPORTED_REASONS),
    issues: LineUpIssueListSchema.exactOptional(),
  })
  .superRefine((payload, context) => {
    if (payload.reason === 'invalid_message' && payload.issues === undefined)
      context.addIssue({
        code: 'custom',
        path: ['issues'],
        message: 'An invalid_message answer says where: it carries issues.',
        params: { code: 'missing_property' satisfies UIIssueCode },
      });
    if (payload.reason !== 'invalid_message' && payload.issues !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['issues'],
        message: 'Only an invalid_message answer carries issues.',
        params: { code: 'unknown_property' satisfies UIIssueCode },
      });
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

const { entries: objectEntries, freeze, fromEntries, hasOwn } = Object;

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
