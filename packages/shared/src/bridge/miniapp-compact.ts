/**
 * `lineup.miniapp.v1` parsed without zod, for the page's end of the channel (`@lineup/miniapp-sdk` in a MiniApp
 * page, which pays for every byte it ships). It accepts exactly what the channel's zod parsers
 * (`parseMiniAppMessageToFrame` / `parseMiniAppMessageFromFrame` in `miniapp.ts`) accept and returns an equal
 * deep-frozen copy; `miniapp-compact.test.ts` holds the two to each other over generated valid messages and
 * their mutations. The rules are the same ones, read from the same constants (`miniapp-constants.ts`,
 * `channel-constants.ts`, `names/patterns.ts`):
 *
 * - the input is plain JSON data within the direction's budget: strings, finite numbers, booleans, null, dense
 *   plain arrays and plain objects (or null-prototype ones) with enumerable string keys and data properties
 *   only (a getter is never run), no own `__proto__` key, at most 128 levels deep and 65,536 values;
 * - then the namespace, the message type, exactly the fields of that type, each field's rule (lengths counted
 *   in code points, as zod counts), the byte bounds of the payloads, and the instance.
 *
 * What differs is the error: it names the first problem found (one located issue), where the zod parser lists
 * up to 20 and may word them differently. Both throw `LineUpProtocolError`.
 */
import { LineUpProtocolError } from '../errors/errors.js';
import { createIssue, UI_ISSUE_CODES, type UIIssueCode } from '../errors/issues.js';
import { MAX_APP_SCOPE_LENGTH, MAX_METHOD_LENGTH } from '../limits/tool-limits.js';
import { MAX_ABS_NUMBER, MAX_JSON_DEPTH, MAX_JSON_VALUES, MAX_STRING_LENGTH } from '../limits/ui-limits.js';
import { TOKEN_PATTERN, TOOL_METHOD_PATTERN, UI_IDENTIFIER_PATTERN } from '../names/patterns.js';
import {
  BRIDGE_INSTANCE_ID_PATTERN,
  BRIDGE_MESSAGE_ID_PATTERN,
  MAX_INSTANCE_ID_LENGTH,
  MAX_MESSAGE_ID_LENGTH,
} from './channel-constants.js';
import type { MiniAppMessageFromFrame, MiniAppMessageToFrame } from './miniapp.js';
import {
  MAX_ERROR_CODE_LENGTH,
  MAX_ERROR_ISSUE_PATH_LENGTH,
  MAX_ERROR_ISSUES,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_INVOCATION_ARGUMENT_BYTES,
  MAX_NAME_LENGTH,
  MAX_REVISION,
  MAX_SESSION_DATA_BYTES,
  MAX_SESSION_DATA_KEYS,
  MAX_SESSION_KEY_LENGTH,
  MAX_SESSION_VALUE_BYTES,
  MAX_TOOL_RESULT_BYTES,
  MAX_UI_ACTION_ARGUMENT_BYTES,
  MAX_UI_ACTION_ARGUMENTS,
  MINIAPP_FROM_FRAME_MAX_BYTES,
  MINIAPP_ISSUE_PATH_PATTERN,
  MINIAPP_LIFECYCLE_PHASES,
  MINIAPP_NAME_PATTERN,
  MINIAPP_NAMESPACE,
  MINIAPP_SESSION_KEY_PATTERN,
  MINIAPP_TO_FRAME_MAX_BYTES,
} from './miniapp-constants.js';

type Path = (string | number)[];
type Data = Readonly<Record<string, unknown>>;

const OBJECT_PROTOTYPE: object = Object.prototype;
const ARRAY_PROTOTYPE: object = Array.prototype;
const { freeze, getOwnPropertyDescriptor, getPrototypeOf, hasOwn, keys: objectKeys } = Object;
const { isArray } = Array;
const { ownKeys } = Reflect;
const { isFinite: isFiniteNumber, isSafeInteger } = Number;
const stringify = JSON.stringify;

function refuse(path: Path, code: UIIssueCode, message: string): never {
  throw new LineUpProtocolError([createIssue(path, code, message)]);
}

/** Unicode code points of `text` (a surrogate pair is one, a lone surrogate too), as zod measures string lengths. */
const codePoints = (text: string): number => [...text].length;

/** UTF-8 bytes of `value` as `JSON.stringify` writes it (its output has no lone surrogates: they are escaped). */
function jsonBytes(value: unknown): number {
  const text = stringify(value);
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    // One unit of a pair adds 1 (4 bytes for 2 units); other units past ASCII add 1 or 2.
    if (unit >= 0x80) bytes += unit < 0x800 || (unit & 0xf800) === 0xd800 ? 1 : 2;
  }
  return bytes;
}

/**
 * A deep-frozen copy of `value` if it is plain JSON data within the channel's depth and value counts, read
 * through property descriptors only; refuses at the first value that is not.
 */
function copyJSON(value: unknown, path: Path, count: { values: number }): unknown {
  if (++count.values > MAX_JSON_VALUES)
    refuse([], 'too_many', `JSON data may contain at most ${MAX_JSON_VALUES} values.`);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return isFiniteNumber(value) ? value : refuse(path, 'invalid_json', 'Numbers must be finite.');
    case 'object': {
      if (value === null) return null;
      if (path.length >= MAX_JSON_DEPTH)
        refuse(path, 'too_deep', `JSON data may nest at most ${MAX_JSON_DEPTH} levels deep.`);
      const array = isArray(value);
      const prototype: unknown = getPrototypeOf(value);
      if (array ? prototype !== ARRAY_PROTOTYPE : prototype !== OBJECT_PROTOTYPE && prototype !== null)
        refuse(path, 'invalid_json', 'Objects and arrays must be plain ones.');
      const names = array ? undefined : objectKeys(value);
      const size = names === undefined ? (value as unknown[]).length : names.length;
      if (size > MAX_JSON_VALUES - count.values)
        refuse([], 'too_many', `JSON data may contain at most ${MAX_JSON_VALUES} values.`);
      // Its own keys are exactly the enumerable string keys (an array's, and its `length`): no symbol, no hidden key.
      const own = ownKeys(value);
      if (own.length !== size + (array ? 1 : 0) || (array && own[size] !== 'length'))
        refuse(path, 'invalid_json', 'Arrays must be dense; objects may only have enumerable string keys.');
      const copy: Record<string | number, unknown> = array ? ([] as unknown as Record<number, unknown>) : {};
      for (let index = 0; index < size; index++) {
        const key = names === undefined ? index : (names[index] as string);
        path.push(key);
        if (key === '__proto__') refuse(path, 'invalid_identifier', 'The key __proto__ is not allowed.');
        const descriptor = getOwnPropertyDescriptor(value, key);
        if (descriptor === undefined || !hasOwn(descriptor, 'value'))
          refuse(path, 'invalid_json', 'Properties must hold plain data, not getters or setters.');
        copy[key] = copyJSON((descriptor as PropertyDescriptor).value, path, count);
        path.pop();
      }
      return freeze(copy);
    }
    default:
      return refuse(path, 'invalid_json', 'Only JSON data is allowed here.');
  }
}

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !isArray(value);

/** Checks one field's value at `path`; refuses at the first problem. */
type Rule = (value: unknown, path: Path) => void;
/**
 * The fields of an object, in the order they are checked: each with its rule, a name ending in `?` optional.
 * Every other field is refused.
 */
type Shape = Readonly<Record<string, Rule>>;
/** A message type whose fields depend on its `status` (`ok` or `error`). */
type ByStatus = { readonly ok: Shape; readonly error: Shape };

/** The fields every message has; `parse` checks them itself. */
const ENVELOPE = ['namespace', 'type', 'instance_id'];

/**
 * The own fields of `value`: exactly `head` and the fields of `shape` (first a field it may not have, then a
 * required one it lacks, each named by the field alone), then each present field's rule in the shape's order —
 * with `idLast`, the first field's rule after the others' (the id of a `request_result` or `tool_return` is
 * checked after its payload).
 */
function checkShape(
  value: Data,
  path: Path,
  shape: Shape,
  head: readonly string[] = [],
  idLast = false,
): void {
  const fields = objectKeys(shape);
  const names = [...head, ...fields.map((field) => field.replace('?', ''))];
  for (const key of objectKeys(value))
    if (!names.includes(key)) refuse([key], 'unknown_property', 'This property is not allowed here.');
  for (const key of [...head, ...fields.filter((field) => !field.endsWith('?'))])
    if (!hasOwn(value, key)) refuse([key], 'missing_property', 'This property is required.');
  if (idLast) fields.push(fields.shift() as string);
  for (const field of fields) {
    const name = field.replace('?', '');
    if (hasOwn(value, name)) (shape[field] as Rule)(value[name], [...path, name]);
  }
}

/** A string of `min`–`max` code points matching `pattern`. */
function text(value: unknown, path: Path, max: number, pattern?: RegExp, min = 0): void {
  if (typeof value !== 'string') refuse(path, 'invalid_type', 'A string is required.');
  const length = codePoints(value);
  if (length < min || length > max)
    refuse(
      path,
      length < min ? 'string_too_short' : 'string_too_long',
      `Must be ${min} to ${max} characters long.`,
    );
  if (pattern !== undefined && !pattern.test(value)) refuse(path, 'invalid_value', 'Not an allowed name.');
}

/** A rule: a name of 1 to `max` code points matching `pattern`. */
const name =
  (max: number, pattern: RegExp): Rule =>
  (value, path) =>
    text(value, path, max, pattern, 1);

const messageId = name(MAX_MESSAGE_ID_LENGTH, BRIDGE_MESSAGE_ID_PATTERN);

const revision: Rule = (value, path) => {
  if (!isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_REVISION)
    refuse(path, 'invalid_value', 'A revision is a whole number from 0.');
};

/** A rule: JSON data of at most `maxBytes` (`what` names it in the refusal). */
const bounded =
  (maxBytes: number, what: string): Rule =>
  (value, path) => {
    if (jsonBytes(value) > maxBytes)
      refuse(path, 'too_large', `${what} may be at most ${maxBytes} bytes as UTF-8 JSON.`);
  };

const ISSUE_CODES: ReadonlySet<string> = new Set(UI_ISSUE_CODES);

/** One located issue of an error: where (names and indexes, never a value) and a known code. */
const ISSUE: Shape = {
  path: name(MAX_ERROR_ISSUE_PATH_LENGTH, MINIAPP_ISSUE_PATH_PATTERN),
  code: (value, path) => {
    if (typeof value !== 'string' || !ISSUE_CODES.has(value))
      refuse(path, 'invalid_value', 'Not a known issue code.');
  },
};

const ERROR: Shape = {
  code: name(MAX_ERROR_CODE_LENGTH, TOKEN_PATTERN),
  'message?': (value, path) => text(value, path, MAX_ERROR_MESSAGE_LENGTH),
  'issues?': (issues, path) => {
    if (!isArray(issues)) refuse(path, 'invalid_type', 'An array is required.');
    if (issues.length < 1 || issues.length > MAX_ERROR_ISSUES)
      refuse(
        path,
        issues.length < 1 ? 'too_few' : 'too_many',
        `1 to ${MAX_ERROR_ISSUES} issues are allowed.`,
      );
    issues.forEach((issue: unknown, index) => {
      const at = [...path, index];
      if (!isObject(issue)) refuse(at, 'invalid_type', 'An issue object is required.');
      checkShape(issue, at, ISSUE);
    });
  },
};

const error: Rule = (value, path) => {
  if (!isObject(value)) refuse(path, 'invalid_type', 'An error object is required.');
  checkShape(value, path, ERROR);
};

/** A rule: a dictionary whose keys match `key`, at most `maxEntries` of them and `maxBytes` as JSON. */
const dictionary =
  (key: RegExp, maxKeyLength: number, maxEntries: number, maxBytes: number, what: string): Rule =>
  (value, path) => {
    if (!isObject(value)) refuse(path, 'invalid_type', 'An object is required.');
    const names = objectKeys(value);
    if (names.length > maxEntries) refuse(path, 'too_many', `At most ${maxEntries} entries are allowed.`);
    // A bad key is reported at the dictionary, never with its (hostile) name in the path.
    if (!names.every((name) => codePoints(name) <= maxKeyLength && key.test(name)))
      refuse(path, 'invalid_identifier', 'A key of this object is not allowed.');
    bounded(maxBytes, what)(value, path);
  };

/** A DSL scalar: a string of at most 4,096 code points, a number with |x| ≤ 1e15, a boolean or null. */
function scalar(value: unknown, path: Path): void {
  if (typeof value === 'string') text(value, path, MAX_STRING_LENGTH);
  else if (typeof value === 'number') {
    if (Math.abs(value) > MAX_ABS_NUMBER) refuse(path, 'number_out_of_range', 'Out of range.');
  } else if (typeof value !== 'boolean' && value !== null)
    refuse(path, 'invalid_type', 'A scalar is required.');
}

const uiActionArguments = dictionary(
  UI_IDENTIFIER_PATTERN,
  Number.POSITIVE_INFINITY,
  MAX_UI_ACTION_ARGUMENTS,
  MAX_UI_ACTION_ARGUMENT_BYTES,
  'UI action arguments',
);

/** The fields of each message type the runtime sends a frame. */
const TO_FRAME: Readonly<Record<string, Shape | ByStatus>> = {
  tool_invocation: {
    invocation_id: messageId,
    app_scope: name(MAX_APP_SCOPE_LENGTH, TOKEN_PATTERN),
    method: name(MAX_METHOD_LENGTH, TOOL_METHOD_PATTERN),
    arguments: (value, path) => {
      if (!isObject(value)) refuse(path, 'invalid_type', 'An object is required.');
      bounded(MAX_INVOCATION_ARGUMENT_BYTES, 'Tool arguments')(value, path);
    },
  },
  tool_invocation_cancel: { invocation_id: messageId },
  session_data: {
    revision,
    data: dictionary(
      MINIAPP_SESSION_KEY_PATTERN,
      MAX_SESSION_KEY_LENGTH,
      MAX_SESSION_DATA_KEYS,
      MAX_SESSION_DATA_BYTES,
      'Session data',
    ),
  },
  lifecycle: {
    phase: (value, path) => {
      if (!(MINIAPP_LIFECYCLE_PHASES as readonly unknown[]).includes(value))
        refuse(path, 'invalid_value', 'Not a lifecycle phase.');
    },
  },
  request_result: {
    ok: { request_id: messageId, status: () => {}, 'revision?': revision },
    error: { request_id: messageId, status: () => {}, error },
  },
};

/** The fields of each message type a frame sends the runtime. */
const FROM_FRAME: Readonly<Record<string, Shape | ByStatus>> = {
  app_ready: {},
  app_failed: { error },
  tool_return: {
    ok: {
      invocation_id: messageId,
      status: () => {},
      result: bounded(MAX_TOOL_RESULT_BYTES, 'A tool result'),
    },
    error: { invocation_id: messageId, status: () => {}, error },
  },
  session_data_write: {
    request_id: messageId,
    key: name(MAX_SESSION_KEY_LENGTH, MINIAPP_SESSION_KEY_PATTERN),
    value: bounded(MAX_SESSION_VALUE_BYTES, 'A session data value'),
    'base_revision?': revision,
  },
  ui_action: {
    request_id: messageId,
    action: name(MAX_NAME_LENGTH, MINIAPP_NAME_PATTERN),
    arguments: (value, path) => {
      uiActionArguments(value, path);
      for (const [key, scalarValue] of Object.entries(value as Data)) scalar(scalarValue, [...path, key]);
    },
  },
};

function parse(
  input: unknown,
  maxBytes: number,
  types: Readonly<Record<string, Shape | ByStatus>>,
  expectedInstanceId: string | undefined,
): unknown {
  let message: unknown;
  try {
    message = copyJSON(input, [], { values: 0 });
  } catch (caught) {
    if (caught instanceof LineUpProtocolError) throw caught;
    // Only a Proxy's trap can throw while a value is read through descriptors.
    return refuse([], 'invalid_json', 'This value could not be inspected as JSON data.');
  }
  if (jsonBytes(message) > maxBytes)
    refuse([], 'too_large', `JSON data may be at most ${maxBytes} bytes as UTF-8.`);
  if (!isObject(message)) refuse([], 'invalid_type', 'A message object is required.');
  if (!hasOwn(message, 'namespace')) refuse(['namespace'], 'missing_property', 'This property is required.');
  if (message.namespace !== MINIAPP_NAMESPACE)
    refuse(
      ['namespace'],
      'invalid_value',
      `Only messages of the ${MINIAPP_NAMESPACE} channel are accepted here.`,
    );
  // The fields of the message's type (of its status, for a type whose fields depend on it).
  const type = message.type;
  if (typeof type !== 'string' || !hasOwn(types, type))
    refuse(['type'], 'invalid_value', 'Not a message type of this direction.');
  let shape = types[type] as Shape | ByStatus;
  const byStatus = hasOwn(shape, 'ok');
  if (byStatus) {
    const status = message.status;
    if (status !== 'ok' && status !== 'error')
      refuse(['status'], 'invalid_value', 'The status is ok or error.');
    shape = (shape as ByStatus)[status];
  }
  checkShape(message, [], shape as Shape, ENVELOPE, byStatus);
  text(message.instance_id, ['instance_id'], MAX_INSTANCE_ID_LENGTH, BRIDGE_INSTANCE_ID_PATTERN, 1);
  if (expectedInstanceId !== undefined && message.instance_id !== expectedInstanceId)
    refuse(['instance_id'], 'invalid_value', 'This message belongs to another instance.');
  return message;
}

/**
 * `parseMiniAppMessageToFrame` without zod: validates a message the runtime posted to a MiniApp frame (with
 * `expectedInstanceId`, one for another instance is refused too). Returns a deep-frozen copy; throws
 * `LineUpProtocolError` with the first problem.
 */
export function parseMiniAppMessageToFrameCompact(
  input: unknown,
  expectedInstanceId?: string,
): MiniAppMessageToFrame {
  return parse(input, MINIAPP_TO_FRAME_MAX_BYTES, TO_FRAME, expectedInstanceId) as MiniAppMessageToFrame;
}

/**
 * `parseMiniAppMessageFromFrame` without zod: validates a message for the runtime from the frame of
 * `expectedInstanceId` (the SDK checks what it is about to send). Returns a deep-frozen copy; throws
 * `LineUpProtocolError` with the first problem.
 */
export function parseMiniAppMessageFromFrameCompact(
  input: unknown,
  expectedInstanceId: string,
): MiniAppMessageFromFrame {
  return parse(
    input,
    MINIAPP_FROM_FRAME_MAX_BYTES,
    FROM_FRAME,
    expectedInstanceId,
  ) as MiniAppMessageFromFrame;
}
