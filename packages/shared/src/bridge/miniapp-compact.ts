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
import { AGENT_TOOL_LIMITS } from '../limits/tool-limits.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { TOKEN_PATTERN, TOOL_METHOD_PATTERN, UI_IDENTIFIER_PATTERN } from '../names/patterns.js';
import { BRIDGE_INSTANCE_ID_PATTERN, BRIDGE_LIMITS, BRIDGE_MESSAGE_ID_PATTERN } from './channel-constants.js';
import type { MiniAppMessageFromFrame, MiniAppMessageToFrame } from './miniapp.js';
import {
  MINIAPP_CHANNEL_LIMITS as LIMITS,
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
const {
  freeze,
  getOwnPropertyDescriptor,
  getOwnPropertyNames,
  getOwnPropertySymbols,
  getPrototypeOf,
  hasOwn,
  keys: objectKeys,
} = Object;
const { isArray } = Array;
const { ownKeys } = Reflect;
const { isFinite: isFiniteNumber, isSafeInteger } = Number;
const stringify = JSON.stringify;

function refuse(path: Path, code: UIIssueCode, message: string): never {
  throw new LineUpProtocolError([createIssue(path, code, message)]);
}

/** Unicode code points of `text` (a surrogate pair is one), as zod measures string lengths. */
function codePoints(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    if ((text.charCodeAt(index) & 0xfc00) === 0xd800 && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      count--;
      index++;
    }
  }
  return count;
}

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
  if (++count.values > UI_LIMITS.maxJsonValues)
    refuse([], 'too_many', `JSON data may contain at most ${UI_LIMITS.maxJsonValues} values.`);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return isFiniteNumber(value) ? value : refuse(path, 'invalid_json', 'Numbers must be finite.');
    case 'object': {
      if (value === null) return null;
      if (path.length >= UI_LIMITS.maxJsonDepth)
        refuse(path, 'too_deep', `JSON data may nest at most ${UI_LIMITS.maxJsonDepth} levels deep.`);
      const array = isArray(value);
      const prototype: unknown = getPrototypeOf(value);
      if (array ? prototype !== ARRAY_PROTOTYPE : prototype !== OBJECT_PROTOTYPE && prototype !== null)
        refuse(path, 'invalid_json', 'Objects and arrays must be plain ones.');
      const names = array ? undefined : objectKeys(value);
      const size = names === undefined ? (value as unknown[]).length : names.length;
      if (size > UI_LIMITS.maxJsonValues - count.values)
        refuse([], 'too_many', `JSON data may contain at most ${UI_LIMITS.maxJsonValues} values.`);
      const own = ownKeys(value);
      if (
        array
          ? own.length !== size + 1 || own[size] !== 'length'
          : getOwnPropertyNames(value).length !== size || getOwnPropertySymbols(value).length !== 0
      )
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

/** The message's own fields: exactly `required` and any of `optional`. */
function fields(message: Data, required: readonly string[], optional: readonly string[] = []): void {
  for (const key of objectKeys(message))
    if (!required.includes(key) && !optional.includes(key))
      refuse([key], 'unknown_property', 'This property is not allowed here.');
  for (const key of required)
    if (!hasOwn(message, key)) refuse([key], 'missing_property', 'This property is required.');
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

const messageId = (message: Data, key: string) =>
  text(message[key], [key], BRIDGE_LIMITS.maxMessageIdLength, BRIDGE_MESSAGE_ID_PATTERN, 1);

function revision(value: unknown, path: Path): void {
  if (!isSafeInteger(value) || (value as number) < 0 || (value as number) > LIMITS.maxRevision)
    refuse(path, 'invalid_value', 'A revision is a whole number from 0.');
}

function bounded(value: unknown, path: Path, maxBytes: number, what: string): void {
  if (jsonBytes(value) > maxBytes)
    refuse(path, 'too_large', `${what} may be at most ${maxBytes} bytes as UTF-8 JSON.`);
}

const ISSUE_CODES: ReadonlySet<string> = new Set(UI_ISSUE_CODES);

function error(value: unknown, path: Path): void {
  if (!isObject(value)) refuse(path, 'invalid_type', 'An error object is required.');
  fields(value, ['code'], ['message', 'issues']);
  text(value.code, [...path, 'code'], LIMITS.maxErrorCodeLength, TOKEN_PATTERN, 1);
  if (hasOwn(value, 'message')) text(value.message, [...path, 'message'], LIMITS.maxErrorMessageLength);
  if (!hasOwn(value, 'issues')) return;
  const issues = value.issues;
  if (!isArray(issues)) refuse([...path, 'issues'], 'invalid_type', 'An array is required.');
  if (issues.length < 1 || issues.length > LIMITS.maxErrorIssues)
    refuse(
      [...path, 'issues'],
      issues.length < 1 ? 'too_few' : 'too_many',
      `1 to ${LIMITS.maxErrorIssues} issues are allowed.`,
    );
  issues.forEach((issue: unknown, index) => {
    const at = [...path, 'issues', index];
    if (!isObject(issue)) refuse(at, 'invalid_type', 'An issue object is required.');
    fields(issue, ['path', 'code']);
    text(issue.path, [...at, 'path'], LIMITS.maxErrorIssuePathLength, MINIAPP_ISSUE_PATH_PATTERN, 1);
    if (typeof issue.code !== 'string' || !ISSUE_CODES.has(issue.code))
      refuse([...at, 'code'], 'invalid_value', 'Not a known issue code.');
  });
}

/** A dictionary whose keys match `key`, at most `maxEntries` of them and `maxBytes` as JSON. */
function dictionary(
  value: unknown,
  path: Path,
  key: RegExp,
  maxKeyLength: number,
  maxEntries: number,
  maxBytes: number,
  what: string,
): Data {
  if (!isObject(value)) refuse(path, 'invalid_type', 'An object is required.');
  const names = objectKeys(value);
  if (names.length > maxEntries) refuse(path, 'too_many', `At most ${maxEntries} entries are allowed.`);
  // A bad key is reported at the dictionary, never with its (hostile) name in the path.
  if (!names.every((name) => codePoints(name) <= maxKeyLength && key.test(name)))
    refuse(path, 'invalid_identifier', 'A key of this object is not allowed.');
  bounded(value, path, maxBytes, what);
  return value;
}

/** Checks the fields of the message `type`; false for a type this direction does not have. */
function checkToFrame(message: Data): boolean {
  switch (message.type) {
    case 'tool_invocation':
      fields(message, [
        'namespace',
        'type',
        'instance_id',
        'invocation_id',
        'app_scope',
        'method',
        'arguments',
      ]);
      messageId(message, 'invocation_id');
      text(message.app_scope, ['app_scope'], AGENT_TOOL_LIMITS.maxAppScopeLength, TOKEN_PATTERN, 1);
      text(message.method, ['method'], AGENT_TOOL_LIMITS.maxMethodLength, TOOL_METHOD_PATTERN, 1);
      if (!isObject(message.arguments)) refuse(['arguments'], 'invalid_type', 'An object is required.');
      bounded(message.arguments, ['arguments'], LIMITS.maxInvocationArgumentBytes, 'Tool arguments');
      return true;
    case 'tool_invocation_cancel':
      fields(message, ['namespace', 'type', 'instance_id', 'invocation_id']);
      messageId(message, 'invocation_id');
      return true;
    case 'session_data':
      fields(message, ['namespace', 'type', 'instance_id', 'revision', 'data']);
      revision(message.revision, ['revision']);
      dictionary(
        message.data,
        ['data'],
        MINIAPP_SESSION_KEY_PATTERN,
        LIMITS.maxSessionKeyLength,
        LIMITS.maxSessionDataKeys,
        LIMITS.maxSessionDataBytes,
        'Session data',
      );
      return true;
    case 'lifecycle':
      fields(message, ['namespace', 'type', 'instance_id', 'phase']);
      if (!(MINIAPP_LIFECYCLE_PHASES as readonly unknown[]).includes(message.phase))
        refuse(['phase'], 'invalid_value', 'Not a lifecycle phase.');
      return true;
    case 'request_result':
      if (message.status === 'ok') {
        fields(message, ['namespace', 'type', 'instance_id', 'request_id', 'status'], ['revision']);
        if (hasOwn(message, 'revision')) revision(message.revision, ['revision']);
      } else if (message.status === 'error') {
        fields(message, ['namespace', 'type', 'instance_id', 'request_id', 'status', 'error']);
        error(message.error, ['error']);
      } else refuse(['status'], 'invalid_value', 'The status is ok or error.');
      messageId(message, 'request_id');
      return true;
    default:
      return false;
  }
}

function checkFromFrame(message: Data): boolean {
  switch (message.type) {
    case 'app_ready':
      fields(message, ['namespace', 'type', 'instance_id']);
      return true;
    case 'app_failed':
      fields(message, ['namespace', 'type', 'instance_id', 'error']);
      error(message.error, ['error']);
      return true;
    case 'tool_return':
      if (message.status === 'ok') {
        fields(message, ['namespace', 'type', 'instance_id', 'invocation_id', 'status', 'result']);
        bounded(message.result, ['result'], LIMITS.maxToolResultBytes, 'A tool result');
      } else if (message.status === 'error') {
        fields(message, ['namespace', 'type', 'instance_id', 'invocation_id', 'status', 'error']);
        error(message.error, ['error']);
      } else refuse(['status'], 'invalid_value', 'The status is ok or error.');
      messageId(message, 'invocation_id');
      return true;
    case 'session_data_write':
      fields(message, ['namespace', 'type', 'instance_id', 'request_id', 'key', 'value'], ['base_revision']);
      messageId(message, 'request_id');
      text(message.key, ['key'], LIMITS.maxSessionKeyLength, MINIAPP_SESSION_KEY_PATTERN, 1);
      bounded(message.value, ['value'], LIMITS.maxSessionValueBytes, 'A session data value');
      if (hasOwn(message, 'base_revision')) revision(message.base_revision, ['base_revision']);
      return true;
    case 'ui_action': {
      fields(message, ['namespace', 'type', 'instance_id', 'request_id', 'action', 'arguments']);
      messageId(message, 'request_id');
      text(message.action, ['action'], LIMITS.maxNameLength, MINIAPP_NAME_PATTERN, 1);
      const args = dictionary(
        message.arguments,
        ['arguments'],
        UI_IDENTIFIER_PATTERN,
        Number.POSITIVE_INFINITY,
        LIMITS.maxUIActionArguments,
        LIMITS.maxUIActionArgumentBytes,
        'UI action arguments',
      );
      for (const [name, value] of Object.entries(args)) scalar(value, ['arguments', name]);
      return true;
    }
    default:
      return false;
  }
}

/** A DSL scalar: a string of at most 4,096 code points, a number with |x| ≤ 1e15, a boolean or null. */
function scalar(value: unknown, path: Path): void {
  if (typeof value === 'string') text(value, path, UI_LIMITS.maxStringLength);
  else if (typeof value === 'number') {
    if (Math.abs(value) > UI_LIMITS.maxAbsNumber) refuse(path, 'number_out_of_range', 'Out of range.');
  } else if (typeof value !== 'boolean' && value !== null)
    refuse(path, 'invalid_type', 'A scalar is required.');
}

function parse(
  input: unknown,
  maxBytes: number,
  check: (message: Data) => boolean,
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
  if (!check(message)) refuse(['type'], 'invalid_value', 'Not a message type of this direction.');
  text(
    message.instance_id,
    ['instance_id'],
    BRIDGE_LIMITS.maxInstanceIdLength,
    BRIDGE_INSTANCE_ID_PATTERN,
    1,
  );
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
  return parse(input, MINIAPP_TO_FRAME_MAX_BYTES, checkToFrame, expectedInstanceId) as MiniAppMessageToFrame;
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
    checkFromFrame,
    expectedInstanceId,
  ) as MiniAppMessageFromFrame;
}
