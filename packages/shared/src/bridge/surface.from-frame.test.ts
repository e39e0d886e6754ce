/**
 * `lineup.surface.v1` (seed 000 §2.4, §4.1–§4.3), from the frame: `parseSurfaceMessageFromFrame`, one row per
 * rule, asserting the issue's code and path; exact limits accepted and one past rejected; a rejected value or
 * key never echoed.
 */
import { describe, expect, it } from 'vitest';
import {
  event,
  focus,
  INSTANCE,
  type J,
  type Row,
  ready,
  resize,
  start,
  state,
  violation,
  WRONG_TYPE,
} from '../../test/surface.js';
import { issuesOf, json, objectOfBytes } from '../../test/utils.js';
import { jsonByteLength } from '../json/safe-json.js';
import { parseSurfaceMessageFromFrame, SURFACE_CHANNEL_LIMITS, SURFACE_NAMESPACE } from './surface.js';

const INJECTED = 'zzInjected';

const FROM_FRAME_REJECTIONS: Row[] = [
  // Channel and type
  { rule: 'not an object', input: () => 'ready', code: WRONG_TYPE, path: '$' },
  {
    rule: 'another namespace',
    input: () => ({ ...ready(), namespace: 'lineup.miniapp.v1' }),
    code: 'invalid_value',
    path: 'namespace',
  },
  {
    rule: 'namespace missing',
    input: () => ({ type: 'ready', instance_id: INSTANCE }),
    code: 'missing_property',
    path: 'namespace',
  },
  {
    rule: 'namespace of another case',
    input: () => ({ ...ready(), namespace: 'LINEUP.SURFACE.V1' }),
    code: 'invalid_value',
    path: 'namespace',
  },
  { rule: 'unknown type', input: () => ({ ...ready(), type: 'call' }), code: 'invalid_value', path: 'type' },
  { rule: 'state is downward only', input: () => state(), code: 'invalid_value', path: 'type' },
  {
    rule: 'app.call does not exist upward',
    input: () => ({ ...event(), type: 'app.call' }),
    code: 'invalid_value',
    path: 'type',
  },
  {
    rule: 'ready naming an instance (the host tells the frame which one it is)',
    input: () => ({ ...ready(), instance_id: INSTANCE }),
    code: 'unknown_property',
    path: '$',
  },
  {
    rule: 'unknown property',
    input: () => ({ ...ready(), [INJECTED]: 1 }),
    code: 'unknown_property',
    path: '$',
  },
  {
    rule: 'top-level __proto__ key',
    input: () => json(`{"namespace":"${SURFACE_NAMESPACE}","type":"ready","__proto__":{}}`),
    code: 'invalid_identifier',
    path: '$',
  },
  // Instance id (seed 000 §4.1: [A-Za-z0-9._:-]{1,128}) and the instance check (§2.4)
  {
    rule: 'another instance',
    input: () => ({ ...event(), instance_id: 'other.01' }),
    code: 'invalid_value',
    path: 'instance_id',
  },
  {
    rule: 'instance id missing',
    input: () => ({ namespace: SURFACE_NAMESPACE, type: 'resize', height: 10 }),
    code: 'missing_property',
    path: 'instance_id',
  },
  {
    rule: 'instance id empty',
    input: () => ({ ...event(), instance_id: '' }),
    code: 'string_too_short',
    path: 'instance_id',
  },
  {
    rule: 'instance id of 129',
    input: () => ({ ...event(), instance_id: 'a'.repeat(129) }),
    code: 'string_too_long',
    path: 'instance_id',
  },
  {
    rule: 'instance id with a space',
    input: () => ({ ...event(), instance_id: 'a b' }),
    code: 'invalid_value',
    path: 'instance_id',
  },
  {
    rule: 'instance id not a string',
    input: () => ({ ...event(), instance_id: 1 }),
    code: WRONG_TYPE,
    path: 'instance_id',
  },
  // Event names (seed 000 §4.2)
  { rule: 'event name empty', input: () => event({ event: '' }), code: 'invalid_value', path: 'event' },
  {
    rule: 'event name starting with a digit',
    input: () => event({ event: '1refresh' }),
    code: 'invalid_value',
    path: 'event',
  },
  {
    rule: 'event name with a slash',
    input: () => event({ event: 'a/b' }),
    code: 'invalid_value',
    path: 'event',
  },
  {
    rule: 'event name of 65',
    input: () => event({ event: `a${'b'.repeat(64)}` }),
    code: 'string_too_long',
    path: 'event',
  },
  {
    rule: 'event name close is the host’s',
    input: () => event({ event: 'close' }),
    code: 'invalid_value',
    path: 'event',
  },
  {
    rule: 'event name missing',
    input: () => {
      const message = event();
      delete message.event;
      return message;
    },
    code: 'missing_property',
    path: 'event',
  },
  // Event data: a JSON object under 16 KiB (seed 000 §4.2)
  { rule: 'data an array', input: () => event({ data: [1] }), code: WRONG_TYPE, path: 'data' },
  { rule: 'data null', input: () => event({ data: null }), code: WRONG_TYPE, path: 'data' },
  { rule: 'data a string', input: () => event({ data: '{}' }), code: WRONG_TYPE, path: 'data' },
  {
    rule: 'data missing',
    input: () => {
      const message = event();
      delete message.data;
      return message;
    },
    code: 'missing_property',
    path: 'data',
  },
  {
    rule: 'data of 16 KiB',
    input: () => event({ data: objectOfBytes(16 * 1_024) }),
    code: 'too_large',
    path: 'data',
  },
  {
    rule: 'data with a __proto__ key',
    input: () => event({ data: json('{"__proto__":{"polluted":true}}') }),
    code: 'invalid_identifier',
    path: 'data',
  },
  {
    rule: 'nested __proto__ key',
    input: () => event({ data: json('{"a":[{"__proto__":1}]}') }),
    code: 'invalid_identifier',
    path: 'data.a[0]',
  },
  {
    rule: 'data with NaN',
    input: () => event({ data: { n: Number.NaN } }),
    code: 'invalid_json',
    path: 'data.n',
  },
  {
    rule: 'data with undefined',
    input: () => event({ data: { n: undefined } }),
    code: 'invalid_json',
    path: 'data.n',
  },
  {
    rule: 'data with a getter',
    input: () => event({ data: Object.defineProperty({}, 'g', { get: () => 1, enumerable: true }) }),
    code: 'invalid_json',
    path: 'data.g',
  },
  {
    rule: 'data a class instance',
    input: () => event({ data: new (class Data {})() }),
    code: 'invalid_json',
    path: 'data',
  },
  {
    rule: 'whole message over budget',
    input: () =>
      event({
        data: objectOfBytes(
          SURFACE_CHANNEL_LIMITS.maxEventDataBytes + SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes,
        ),
      }),
    code: 'too_large',
    path: '$',
  },
  // Resize: a bounded positive height
  { rule: 'height zero', input: () => resize(0), code: 'number_out_of_range', path: 'height' },
  { rule: 'height negative', input: () => resize(-10), code: 'number_out_of_range', path: 'height' },
  {
    rule: 'height past the bound',
    input: () => resize(SURFACE_CHANNEL_LIMITS.maxFrameHeight + 0.5),
    code: 'number_out_of_range',
    path: 'height',
  },
  { rule: 'height a string', input: () => resize('100px'), code: WRONG_TYPE, path: 'height' },
  {
    rule: 'height Infinity',
    input: () => resize(Number.POSITIVE_INFINITY),
    code: 'invalid_json',
    path: 'height',
  },
  {
    rule: 'height missing',
    input: () => ({ namespace: SURFACE_NAMESPACE, type: 'resize', instance_id: INSTANCE }),
    code: 'missing_property',
    path: 'height',
  },
  {
    rule: 'resize with extra width',
    input: () => ({ ...resize(10), width: 10 }),
    code: 'unknown_property',
    path: '$',
  },
  // Violations: a closed set of kinds, nothing else
  {
    rule: 'violation of an unknown kind',
    input: () => violation('network'),
    code: 'invalid_value',
    path: 'kind',
  },
  {
    rule: 'violation without a kind',
    input: () => ({ namespace: SURFACE_NAMESPACE, type: 'violation', instance_id: INSTANCE }),
    code: 'missing_property',
    path: 'kind',
  },
  {
    rule: 'violation with a detail',
    input: () => ({ ...violation('navigation'), url: 'https://example.com' }),
    code: 'unknown_property',
    path: '$',
  },
  { rule: 'focus is downward only', input: () => focus(), code: 'invalid_value', path: 'type' },
  { rule: 'start is downward only', input: () => start(), code: 'invalid_value', path: 'type' },
];
describe('parseSurfaceMessageFromFrame', () => {
  it.each([
    ['ready', ready()],
    ['event of seed 000 §4.2', event()],
    ['event with empty data', event({ data: {} })],
    ['event name of 64 with every allowed character', event({ event: `a.B_c:d-9${'x'.repeat(55)}` })],
    ['event name closed (close is reserved only as itself)', event({ event: 'closed' })],
    [
      'event data of exactly 16,383 bytes',
      event({ data: objectOfBytes(SURFACE_CHANNEL_LIMITS.maxEventDataBytes) }),
    ],
    ['nested data', event({ data: { a: [1, { b: null }], c: 'ü' } })],
    ['resize, integer', resize(480)],
    ['resize, fractional', resize(480.5)],
    ['resize at the bound', resize(SURFACE_CHANNEL_LIMITS.maxFrameHeight)],
    ['instance id of 128', event({ instance_id: 'a'.repeat(128) })],
    ['a navigation violation', violation('navigation')],
    ['a focus violation', violation('focus')],
  ])('accepts %s', (_rule, input) => {
    const instance = ((input as J).instance_id as string | undefined) ?? INSTANCE;
    const message = parseSurfaceMessageFromFrame(input, instance);
    expect(message).toEqual(input);
    expect(message).not.toBe(input);
    expect(Object.isFrozen(message)).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
    if (message.type === 'event') expect(Object.isFrozen(message.data)).toBe(true);
  });

  it('pins the data bound at 16,383 bytes (less than 16 KiB)', () => {
    expect(jsonByteLength(objectOfBytes(SURFACE_CHANNEL_LIMITS.maxEventDataBytes))).toBe(16_383);
    expect(() =>
      parseSurfaceMessageFromFrame(event({ data: objectOfBytes(16_383) }), INSTANCE),
    ).not.toThrow();
    expect(
      issuesOf(() => parseSurfaceMessageFromFrame(event({ data: objectOfBytes(16_384) }), INSTANCE)),
    ).toEqual([expect.objectContaining({ code: 'too_large', path: 'data' })]);
  });

  it.each(FROM_FRAME_REJECTIONS.map((row) => [row.rule, row] as const))('rejects %s', (_rule, row) => {
    const issues = issuesOf(() => parseSurfaceMessageFromFrame(row.input(), INSTANCE));
    expect(issues).toContainEqual(expect.objectContaining({ code: row.code, path: row.path }));
    for (const issue of issues) expect(issue.message).not.toContain(INJECTED);
  });

  it('never echoes a rejected value or key', () => {
    const issues = issuesOf(() =>
      parseSurfaceMessageFromFrame(
        { ...event({ event: `${INJECTED}/x` }), [`${INJECTED}Key`]: INJECTED },
        INSTANCE,
      ),
    );
    for (const issue of issues) expect(`${issue.path} ${issue.message}`).not.toContain(INJECTED);
  });
});
