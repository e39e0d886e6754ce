/**
 * Parsing a `lineup.v1` envelope (seed 000 §3). The envelope's schemas and the catalogue of every message
 * type it carries live in `envelope-schemas.ts`; this module re-exports them.
 *
 * `parseEnvelope` sorts what arrives into three outcomes, and nothing is executed on the way:
 * - a known type with a valid payload → `{ kind: 'message', message }`, deep-frozen and typed by `type`;
 * - a well-formed envelope of a type (or a later protocol version) this side does not know →
 *   `{ kind: 'unsupported', … }`, so the caller answers `lineup.v1.unsupported` and never runs it
 *   (seed 000 §3 "未知的 ui.* 或 app.* type 只能安全显示或回复 unsupported，不得执行");
 * - anything else → `LineUpProtocolError` with located, coded issues that echo nothing the sender wrote.
 */
import type { z } from 'zod';
import { LineUpProtocolError } from '../errors/errors.js';
import { createIssue, IssueCollector, type UIIssueCode } from '../errors/issues.js';
import { deepFreeze } from '../json/freeze.js';
import * as parse from '../json/parse.js';
import { measureSafeJSON, type SafeJSONBudget } from '../json/safe-json.js';
import { scanJSONText } from '../json/text-scan.js';
import type {
  LineUpDirection,
  LineUpMessage,
  LineUpMessageType,
  LineUpParty,
  LineUpUnsupportedReason,
} from './envelope-schemas.js';
import * as catalogue from './envelope-schemas.js';
import { lightForm } from './light-form.js';
import { LineUpIdSchema } from './messages/common.js';
import { LINEUP_WIRE_LIMITS } from './messages/limits.js';
import { type PrecompiledParser, precompile } from './precompiled.js';

const { freeze, getOwnPropertyDescriptor } = Object;
// Bound once at load: every envelope consults the catalogue, and under the test runner's module transform
// (vitest, where the benchmarks run) each read of an imported name is a getter call.
const {
  isLineUpMessageType,
  LINEUP_MESSAGE_SCHEMAS,
  LINEUP_MESSAGE_TYPES,
  LINEUP_PAYLOAD_SCHEMAS,
  LINEUP_PROTOCOL_VERSION,
  LineUpEnvelopeSchema,
  LineUpMessageTypeNameSchema,
  LineUpPartySchema,
} = catalogue;
const { parseStrict } = parse;
const { isArray } = Array;

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

/** The header fields of an envelope that pass their own schema; the rest are left out. */
function unsupported(input: Record<string, unknown>, reason: LineUpUnsupportedReason): UnsupportedEnvelope {
  const { call_id: _callId, ...header } = envelopeHeader(input);
  return deepFreeze({ kind: 'unsupported', reason, ...header });
}

const DIRECTION_TEXT: Readonly<Record<LineUpDirection, string>> = freeze({
  agent_to_client: 'agent to client',
  client_to_agent: 'client to agent',
});

/**
 * Classifies and validates one decoded `lineup.v1` envelope (the value `JSON.parse` returned, or a structured
 * clone). The steps are those of `parseShape` — safe JSON within `LINEUP_ENVELOPE_BUDGET` before anything
 * reads the input, then strict zod (`parseStrict`, its own step), then a deep freeze — with the type dispatch
 * in between:
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
  return parseEnvelopeValue(input, options, false);
}

/** `parseEnvelope`; `owned`: `input` is this module's own result of `JSON.parse` (see `PrecompiledParser`). */
function parseEnvelopeValue(input: unknown, options: ParseEnvelopeOptions, owned: boolean): ParsedEnvelope {
  const precompiled = precompiledMessage(input, owned);
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
      const schema = LINEUP_MESSAGE_SCHEMAS[type] as z.ZodType<LineUpMessage>;
      // The light form first (light-form.ts): an invalid message is refused with the issues zod gives for it as
      // sent, without zod walking the JSON data it had nothing to say about.
      const light = lightForm(LINEUP_PAYLOAD_SCHEMAS[type], input);
      if (light !== undefined) parseStrict(schema, light, LineUpProtocolError, undefined, true);
      const message = parseStrict(
        schema,
        input,
        LineUpProtocolError,
        undefined,
        // Its precompiled parser, if it has one, declined, and no light form said why: one detailed pass.
        light === undefined && PRECOMPILED.get(type) != null,
      );
      return freeze({ kind: 'message', message: deepFreeze(message) });
    }
  }
  parseStrict(LineUpEnvelopeSchema, input, LineUpProtocolError);
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
function precompiledMessage(input: unknown, owned: boolean): LineUpMessage | undefined {
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
    parser =
      precompile(LINEUP_MESSAGE_SCHEMAS[type] as z.ZodType<LineUpMessage>, LINEUP_ENVELOPE_BUDGET) ?? null;
    PRECOMPILED.set(type, parser);
  }
  return parser === null ? undefined : parser(input, owned);
}

/** A well-formed header around a message this side refused: each field only if it passed its own schema. */
export interface EnvelopeHeader {
  readonly id?: string;
  readonly type?: string;
  readonly conversation_id?: string;
  readonly sender?: LineUpParty;
  /** `payload.call_id`: a refused call (`tool.call`, `app.call`) is answered with its own result. */
  readonly call_id?: string;
}

/** A frame that is not a message this side accepts, with what could still be read of its header. */
export interface InvalidEnvelope {
  readonly kind: 'invalid';
  readonly error: LineUpProtocolError;
  readonly header: EnvelopeHeader;
}

export type ReadEnvelope = ParsedEnvelope | InvalidEnvelope;

/** How much of a frame over the byte budget is read, looking for its header: the rest is never read. */
export const ENVELOPE_HEADER_SCAN_CHARS = 16_384;

const HEADER_MEMBERS = [['id'], ['type'], ['conversation_id'], ['payload', 'call_id']] as const;

/** The fields of `raw` (decoded values by name) that pass their schemas. */
function validHeader(raw: {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly conversation_id?: unknown;
  readonly sender?: unknown;
  readonly call_id?: unknown;
}): EnvelopeHeader {
  const header: { -readonly [K in keyof EnvelopeHeader]: EnvelopeHeader[K] } = {};
  const id = LineUpIdSchema.safeParse(raw.id);
  if (id.success) header.id = id.data;
  const type = LineUpMessageTypeNameSchema.safeParse(raw.type);
  if (type.success) header.type = type.data;
  const conversation = LineUpIdSchema.safeParse(raw.conversation_id);
  if (conversation.success) header.conversation_id = conversation.data;
  const sender = LineUpPartySchema.safeParse(raw.sender);
  if (sender.success) header.sender = sender.data;
  const callId = LineUpIdSchema.safeParse(raw.call_id);
  if (callId.success) header.call_id = callId.data;
  return freeze(header);
}

/** An own data property of a plain object, never running a getter; undefined otherwise. */
function ownData(value: unknown, key: string): unknown {
  if (!isRecord(value)) return undefined;
  try {
    const descriptor = getOwnPropertyDescriptor(value, key);
    return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What can still be read of the header of a decoded envelope that `parseEnvelope` refused: `id`, `type`,
 * `conversation_id`, `sender` and `payload.call_id`, each only if valid by its own schema.
 */
export function envelopeHeader(input: unknown): EnvelopeHeader {
  return validHeader({
    id: ownData(input, 'id'),
    type: ownData(input, 'type'),
    conversation_id: ownData(input, 'conversation_id'),
    sender: ownData(input, 'sender'),
    call_id: ownData(ownData(input, 'payload'), 'call_id'),
  });
}

function headerOfText(captured: ReadonlyMap<string, string>): EnvelopeHeader {
  const value = (path: string): unknown => {
    const literal = captured.get(path);
    if (literal === undefined) return undefined;
    try {
      return JSON.parse(literal);
    } catch {
      return undefined;
    }
  };
  return validHeader({
    id: value('id'),
    type: value('type'),
    conversation_id: value('conversation_id'),
    call_id: value('payload.call_id'),
  });
}

function invalid(error: LineUpProtocolError, header: EnvelopeHeader): InvalidEnvelope {
  return freeze({ kind: 'invalid', error, header });
}

const issueError = (code: UIIssueCode, message: string) =>
  new LineUpProtocolError([createIssue([], code, message)]);

/**
 * Reads the JSON text a transport received, never throwing: a message, an unsupported envelope, or `invalid`
 * with the error and what could be read of the header (so a receiver can answer by id). The envelope's budget
 * is checked at the door, before `JSON.parse` builds anything: text longer than `maxEnvelopeBytes` is refused
 * having read only its first `ENVELOPE_HEADER_SCAN_CHARS` characters (a UTF-16 length never exceeds the UTF-8
 * length), and nesting or a count of values over the budget is found by `scanJSONText` in one pass that stops
 * there. Then `JSON.parse` and `parseEnvelope`.
 */
export function readEnvelopeText(text: unknown, options: ParseEnvelopeOptions = {}): ReadEnvelope {
  if (typeof text !== 'string') return invalid(issueError('invalid_type', 'Expected JSON text.'), {});
  const { maxBytes, maxDepth, maxValues } = LINEUP_ENVELOPE_BUDGET;
  if (text.length > maxBytes) {
    const head = scanJSONText(text, LINEUP_ENVELOPE_BUDGET, {
      capture: HEADER_MEMBERS,
      maxChars: ENVELOPE_HEADER_SCAN_CHARS,
    });
    return invalid(
      issueError('too_large', `JSON data may be at most ${maxBytes} bytes as UTF-8.`),
      headerOfText(head.captured),
    );
  }
  const scan = scanJSONText(text, LINEUP_ENVELOPE_BUDGET, { capture: HEADER_MEMBERS });
  if (scan.exceeded !== undefined)
    return invalid(
      scan.exceeded === 'too_deep'
        ? issueError('too_deep', `JSON data may nest objects and arrays at most ${maxDepth} levels deep.`)
        : issueError('too_many', `JSON data may contain at most ${maxValues} values.`),
      headerOfText(scan.captured),
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid(issueError('invalid_json', 'This text is not valid JSON.'), headerOfText(scan.captured));
  }
  try {
    // Its own parse: the precompiled parsers freeze its JSON data where it is instead of copying it.
    return parseEnvelopeValue(value, options, true);
  } catch (error) {
    if (!(error instanceof LineUpProtocolError)) throw error;
    return invalid(error, envelopeHeader(value));
  }
}

/**
 * `parseEnvelope` for the JSON text a transport received, throwing what `readEnvelopeText` reports as
 * `invalid`: text over the byte budget is refused before it is parsed, nesting and values over the budget before
 * `JSON.parse` builds anything, and text that is not JSON is an `invalid_json` issue.
 */
export function parseEnvelopeText(text: string, options: ParseEnvelopeOptions = {}): ParsedEnvelope {
  const read = readEnvelopeText(text, options);
  if (read.kind === 'invalid') throw read.error;
  return read;
}
