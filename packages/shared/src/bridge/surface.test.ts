/**
 * `lineup.surface.v1` (seed 000 §2.4, §4.1–§4.3): one row per rule, asserting the issue's code and path; exact
 * limits accepted and one past rejected; arbitrary input never makes a parser throw anything but
 * `LineUpProtocolError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issuesOf, json, objectOfBytes } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import { jsonByteLength } from '../json/safe-json.js';
import {
  MCP_VIEW_CHANNEL_LIMITS,
  MINIAPP_PAGE_CHANNEL_LIMITS,
  parseSurfaceMcpMessage,
  parseSurfaceMessageFromFrame,
  parseSurfaceMessageToFrame,
  parseSurfacePageMessage,
  SURFACE_CHANNEL_LIMITS,
  SURFACE_NAMESPACE,
  SurfaceMessageFromFrameSchema,
} from './surface.js';
import { parseSurfaceKeyMessage, parseSurfaceStorageMessage } from './surface-view.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

/** The code for "present, but of the wrong type" (missing properties are `missing_property`). */
const WRONG_TYPE: UIIssueCode = 'invalid_type';

const INSTANCE = 'weather.dashboard.01';
const INJECTED = 'zzInjected';

const ready = (): J => ({ namespace: SURFACE_NAMESPACE, type: 'ready' });
const start = (overrides: J = {}): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'start',
  instance_id: INSTANCE,
  html: '<main></main>',
  css: 'main { padding: 8px }',
  js: 'LineUpSurface.event("refresh")',
  ...overrides,
});
const event = (overrides: J = {}): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'event',
  instance_id: INSTANCE,
  event: 'refresh',
  data: { unit: 'c' },
  ...overrides,
});
const resize = (height: unknown): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'resize',
  instance_id: INSTANCE,
  height,
});
const state = (value: unknown = { city: '北京', temperature: 22 }): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'state',
  instance_id: INSTANCE,
  state: value,
});

const violation = (kind: unknown): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'violation',
  instance_id: INSTANCE,
  kind,
});
const focus = (): J => ({ namespace: SURFACE_NAMESPACE, type: 'focus', instance_id: INSTANCE });

interface Row {
  readonly rule: string;
  readonly input: () => unknown;
  readonly code: UIIssueCode;
  readonly path: string;
}

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

const TO_FRAME_REJECTIONS: Row[] = [
  {
    rule: 'another namespace',
    input: () => ({ ...state(), namespace: 'lineup.miniapp.v1' }),
    code: 'invalid_value',
    path: 'namespace',
  },
  { rule: 'event is upward only', input: () => event(), code: 'invalid_value', path: 'type' },
  { rule: 'ready is upward only', input: () => ready(), code: 'invalid_value', path: 'type' },
  { rule: 'violation is upward only', input: () => violation('focus'), code: 'invalid_value', path: 'type' },
  {
    rule: 'start without js',
    input: () => {
      const { js: _, ...rest } = start();
      return rest;
    },
    code: 'missing_property',
    path: 'js',
  },
  {
    rule: 'start with a bundle over 160 KiB in total',
    input: () =>
      start({
        html: 'h'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes / 2),
        js: 'j'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes / 2 + 1),
      }),
    code: 'too_large',
    path: '$',
  },
  {
    rule: 'start with a width of 0',
    input: () => start({ width: 0 }),
    code: 'number_out_of_range',
    path: 'width',
  },
  {
    rule: 'start with a fractional width',
    input: () => start({ width: 480.5 }),
    code: 'invalid_type',
    path: 'width',
  },
  {
    rule: 'start with a width past the bound',
    input: () => start({ width: SURFACE_CHANNEL_LIMITS.maxFrameWidth + 1 }),
    code: 'number_out_of_range',
    path: 'width',
  },
  {
    rule: 'start with a width in a string',
    input: () => start({ width: '480px' }),
    code: WRONG_TYPE,
    path: 'width',
  },
  {
    rule: 'start naming the app (identity is the host business)',
    input: () => start({ id: 'com.example.app' }),
    code: 'unknown_property',
    path: '$',
  },
  {
    rule: 'focus with a target element',
    input: () => ({ ...focus(), selector: '#password' }),
    code: 'unknown_property',
    path: '$',
  },
  {
    rule: 'code is never sent down',
    input: () => ({ ...state(), js: 'alert(1)' }),
    code: 'unknown_property',
    path: '$',
  },
  {
    rule: 'html is never a type',
    input: () => ({ ...state(), type: 'html' }),
    code: 'invalid_value',
    path: 'type',
  },
  { rule: 'state an array', input: () => state([]), code: WRONG_TYPE, path: 'state' },
  { rule: 'state null', input: () => state(null), code: WRONG_TYPE, path: 'state' },
  {
    rule: 'state missing',
    input: () => ({ namespace: SURFACE_NAMESPACE, type: 'state', instance_id: INSTANCE }),
    code: 'missing_property',
    path: 'state',
  },
  {
    rule: 'state one byte too large',
    input: () => state(objectOfBytes(SURFACE_CHANNEL_LIMITS.maxStateBytes + 1)),
    code: 'too_large',
    path: 'state',
  },
  {
    rule: 'state with a __proto__ key',
    input: () => state(json('{"__proto__":{}}')),
    code: 'invalid_identifier',
    path: 'state',
  },
  {
    rule: 'another instance',
    input: () => ({ ...state(), instance_id: 'other' }),
    code: 'invalid_value',
    path: 'instance_id',
  },
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

describe('parseSurfaceMessageToFrame', () => {
  it('accepts a state, and one of exactly the state budget', () => {
    expect(parseSurfaceMessageToFrame(focus(), INSTANCE)).toEqual(focus());
    expect(parseSurfaceMessageToFrame(start(), INSTANCE)).toEqual(start());
    for (const width of [1, 498, SURFACE_CHANNEL_LIMITS.maxFrameWidth])
      expect(parseSurfaceMessageToFrame(start({ width }), INSTANCE)).toEqual(start({ width }));
    const largestBundle = start({ html: '', css: '', js: 'j'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes) });
    expect(parseSurfaceMessageToFrame(largestBundle, INSTANCE).type).toBe('start');
    expect(parseSurfaceMessageToFrame(state(), INSTANCE)).toEqual(state());
    expect(parseSurfaceMessageToFrame(state({}))).toEqual(state({}));
    const largest = state(objectOfBytes(SURFACE_CHANNEL_LIMITS.maxStateBytes));
    expect(parseSurfaceMessageToFrame(largest).type).toBe('state');
  });

  it.each(TO_FRAME_REJECTIONS.map((row) => [row.rule, row] as const))('rejects %s', (_rule, row) => {
    const issues = issuesOf(() => parseSurfaceMessageToFrame(row.input(), INSTANCE));
    expect(issues).toContainEqual(expect.objectContaining({ code: row.code, path: row.path }));
  });
});

describe('properties', () => {
  const parsers = [
    (input: unknown) => parseSurfaceMessageFromFrame(input, INSTANCE),
    (input: unknown) => parseSurfaceMessageToFrame(input, INSTANCE),
    (input: unknown) => parseSurfaceMessageToFrame(input),
  ];

  it('arbitrary JSON or JS values never throw anything but LineUpProtocolError', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.anything({ withObjectString: true, withNullPrototype: true })),
        (input) => {
          for (const parse of parsers) {
            try {
              parse(input);
            } catch (error) {
              expect(error).toBeInstanceOf(LineUpProtocolError);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a valid message with one field replaced by arbitrary JSON is accepted as valid or rejected cleanly', () => {
    const base = [ready(), event(), resize(10), state()];
    fc.assert(
      fc.property(
        fc.constantFrom(...base),
        fc.constantFrom('namespace', 'type', 'instance_id', 'event', 'data', 'height', 'state', '__proto__'),
        fc.jsonValue({ maxDepth: 3 }),
        (message, key, value) => {
          const input = JSON.parse(JSON.stringify(message));
          Object.defineProperty(input, key, { value, enumerable: true, writable: true, configurable: true });
          for (const parse of parsers) {
            try {
              const parsed = parse(input);
              // Whatever passes is a valid message, and parsing it again gives the same.
              expect(SurfaceMessageFromFrameSchema.safeParse(parsed).success || parsed.type === 'state').toBe(
                true,
              );
              expect(parse(parsed)).toEqual(parsed);
            } catch (error) {
              expect(error).toBeInstanceOf(LineUpProtocolError);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('MCP App views on the Surface channel', () => {
  const rpc = (overrides: J = {}): J => ({
    namespace: SURFACE_NAMESPACE,
    type: 'mcp',
    instance_id: INSTANCE,
    message: { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} },
    ...overrides,
  });
  const refused = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(LineUpProtocolError);
      return (error as LineUpProtocolError).issues.map(({ code, path }) => ({ code, path }));
    }
    throw new Error('accepted');
  };

  it('a view start may be larger than a Surface bundle, up to the view bound, and carry modules', () => {
    const big = 'x'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes);
    expect(
      parseSurfaceMessageToFrame(start({ protocol: 'mcp_app', html: big, modules: ['export {}'] })),
    ).toMatchObject({
      protocol: 'mcp_app',
      modules: ['export {}'],
    });
    expect(refused(() => parseSurfaceMessageToFrame(start({ html: big })))).toEqual([
      { code: 'too_large', path: '$' },
    ]);
    const tooBig = 'x'.repeat(MCP_VIEW_CHANNEL_LIMITS.maxViewBytes - 20);
    expect(
      refused(() =>
        parseSurfaceMessageToFrame(start({ protocol: 'mcp_app', html: tooBig, modules: ['x'.repeat(64)] })),
      ),
    ).toEqual([{ code: 'too_large', path: '$' }]);
  });

  it('only a view or a page has modules, only a page a fragment, and no other protocol exists', () => {
    expect(refused(() => parseSurfaceMessageToFrame(start({ modules: ['export {}'] })))).toEqual([
      { code: 'unknown_property', path: 'modules' },
    ]);
    const page = { protocol: 'miniapp', modules: ['export {}'], fragment: `lineup-instance=${INSTANCE}` };
    expect(parseSurfaceMessageToFrame(start(page))).toMatchObject(page);
    expect(refused(() => parseSurfaceMessageToFrame(start({ fragment: 'x=1' })))).toEqual([
      { code: 'unknown_property', path: 'fragment' },
    ]);
    expect(
      refused(() => parseSurfaceMessageToFrame(start({ protocol: 'mcp_app', fragment: 'x=1' }))),
    ).toEqual([{ code: 'unknown_property', path: 'fragment' }]);
    expect(
      refused(() =>
        parseSurfaceMessageToFrame(
          start({
            protocol: 'miniapp',
            fragment: 'x'.repeat(MINIAPP_PAGE_CHANNEL_LIMITS.maxFragmentLength + 1),
          }),
        ),
      )[0],
    ).toMatchObject({ path: 'fragment' });
    expect(refused(() => parseSurfaceMessageToFrame(start({ protocol: 'mcp' })))).toEqual([
      { code: 'invalid_value', path: 'protocol' },
    ]);
  });

  it('parseSurfaceMcpMessage takes one JSON-RPC 2.0 object of the instance, within its bound', () => {
    expect(parseSurfaceMcpMessage(rpc(), INSTANCE).message).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/initialize',
      params: {},
    });
    expect(
      refused(() => parseSurfaceMcpMessage(rpc({ message: { jsonrpc: '1.0', id: 1 } }), INSTANCE)),
    ).toEqual([{ code: 'invalid_value', path: 'message.jsonrpc' }]);
    expect(refused(() => parseSurfaceMcpMessage(rpc({ message: [1, 2] }), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'message' },
    ]);
    expect(refused(() => parseSurfaceMcpMessage(rpc(), 'another.instance'))).toEqual([
      { code: 'invalid_value', path: 'instance_id' },
    ]);
    const large = {
      jsonrpc: '2.0',
      method: 'x',
      params: { text: 'x'.repeat(MCP_VIEW_CHANNEL_LIMITS.maxMessageBytes) },
    };
    expect(refused(() => parseSurfaceMcpMessage(rpc({ message: large }), INSTANCE))[0]?.code).toBe(
      'too_large',
    );
    expect(
      refused(() => parseSurfaceMcpMessage({ ...rpc(), namespace: 'lineup.miniapp.v1' }, INSTANCE)),
    ).toEqual([{ code: 'invalid_value', path: 'namespace' }]);
  });

  it("a view's storage: [key, value] string pairs, each key once, bounded; only a view's start carries it", () => {
    const storage = (entries: unknown): J => ({
      namespace: SURFACE_NAMESPACE,
      type: 'storage',
      instance_id: INSTANCE,
      entries,
    });
    const entries = [
      ['__proto__', '{"polluted":true}'],
      ['', 'empty key'],
      ['map-view', '{"zoom":3}'],
    ];
    expect(parseSurfaceStorageMessage(storage(entries), INSTANCE).entries).toEqual(entries);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parseSurfaceStorageMessage(storage([]), INSTANCE).entries).toEqual([]);
    expect(
      refused(() =>
        parseSurfaceStorageMessage(
          storage([
            ['a', '1'],
            ['a', '2'],
          ]),
          INSTANCE,
        ),
      ),
    ).toEqual([{ code: 'invalid_value', path: 'entries[1][0]' }]);
    expect(refused(() => parseSurfaceStorageMessage(storage([['a', 1]]), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'entries[0][1]' },
    ]);
    expect(refused(() => parseSurfaceStorageMessage(storage({ a: '1' }), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'entries' },
    ]);
    const half = MCP_VIEW_CHANNEL_LIMITS.maxStorageLength / 2;
    expect(
      parseSurfaceStorageMessage(storage([['k'.repeat(half), 'v'.repeat(half)]]), INSTANCE).entries,
    ).toHaveLength(1);
    expect(
      refused(() =>
        parseSurfaceStorageMessage(storage([['k'.repeat(half), 'v'.repeat(half + 1)]]), INSTANCE),
      ),
    ).toEqual([{ code: 'too_large', path: 'entries' }]);
    const many = Array.from({ length: MCP_VIEW_CHANNEL_LIMITS.maxStorageItems + 1 }, (_, index) => [
      String(index),
      '',
    ]);
    expect(refused(() => parseSurfaceStorageMessage(storage(many), INSTANCE))[0]?.code).toBe('too_many');
    expect(refused(() => parseSurfaceStorageMessage(storage([]), 'another.instance'))).toEqual([
      { code: 'invalid_value', path: 'instance_id' },
    ]);
    // The other parsers refuse it: only a host that started a view reads it.
    expect(refused(() => parseSurfaceMessageFromFrame(storage([]), INSTANCE))[0]).toMatchObject({
      path: 'type',
    });
    expect(parseSurfaceMessageToFrame(start({ protocol: 'mcp_app', storage: [['a', '1']] }))).toMatchObject({
      storage: [['a', '1']],
    });
    for (const protocol of [undefined, 'miniapp'])
      expect(
        refused(() =>
          parseSurfaceMessageToFrame(start({ ...(protocol ? { protocol } : {}), storage: [['a', '1']] })),
        ),
      ).toEqual([{ code: 'unknown_property', path: 'storage' }]);
  });

  it("a view's Escape: only the key Escape, of the instance, read by its own parser only", () => {
    const key = (overrides: J = {}): J => ({
      namespace: SURFACE_NAMESPACE,
      type: 'key',
      instance_id: INSTANCE,
      key: 'Escape',
      ...overrides,
    });
    expect(parseSurfaceKeyMessage(key(), INSTANCE)).toEqual(key());
    expect(refused(() => parseSurfaceKeyMessage(key({ key: 'Enter' }), INSTANCE))).toEqual([
      { code: 'invalid_value', path: 'key' },
    ]);
    expect(refused(() => parseSurfaceKeyMessage(key({ code: 27 }), INSTANCE))).toEqual([
      { code: 'unknown_property', path: '$' },
    ]);
    expect(refused(() => parseSurfaceKeyMessage(key(), 'another.instance'))).toEqual([
      { code: 'invalid_value', path: 'instance_id' },
    ]);
    expect(refused(() => parseSurfaceMessageFromFrame(key(), INSTANCE))[0]).toMatchObject({ path: 'type' });
  });

  it("a page's start and a view's are bounded by a bundle file's size; a Surface's by its bundle's", () => {
    const big = 'x'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes + 1);
    for (const protocol of ['miniapp', 'mcp_app'])
      expect(parseSurfaceMessageToFrame(start({ protocol, js: big }))).toMatchObject({ type: 'start' });
    expect(refused(() => parseSurfaceMessageToFrame(start({ js: big })))[0]?.code).toBe('too_large');
    expect(MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes).toBe(MCP_VIEW_CHANNEL_LIMITS.maxViewBytes);
    const tooBig = 'x'.repeat(MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes - 10);
    expect(
      refused(() =>
        parseSurfaceMessageToFrame(start({ protocol: 'miniapp', js: tooBig, modules: ['y'.repeat(20)] })),
      )[0]?.code,
    ).toBe('too_large');
  });

  it('parseSurfacePageMessage takes one JSON object of the instance, within its bound', () => {
    const pageMessage = (overrides: Record<string, unknown> = {}) => ({
      namespace: 'lineup.surface.v1',
      type: 'page',
      instance_id: INSTANCE,
      message: { namespace: 'lineup.miniapp.v1', type: 'app_ready', instance_id: INSTANCE },
      ...overrides,
    });
    expect(parseSurfacePageMessage(pageMessage(), INSTANCE).message).toEqual({
      namespace: 'lineup.miniapp.v1',
      type: 'app_ready',
      instance_id: INSTANCE,
    });
    expect(refused(() => parseSurfacePageMessage(pageMessage({ message: [1] }), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'message' },
    ]);
    expect(refused(() => parseSurfacePageMessage(pageMessage({ message: 'text' }), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'message' },
    ]);
    expect(refused(() => parseSurfacePageMessage(pageMessage(), 'another.instance'))).toEqual([
      { code: 'invalid_value', path: 'instance_id' },
    ]);
    expect(refused(() => parseSurfacePageMessage(pageMessage({ extra: 1 }), INSTANCE))[0]).toMatchObject({
      code: 'unknown_property',
    });
    const large = { text: 'x'.repeat(MINIAPP_PAGE_CHANNEL_LIMITS.maxMessageBytes) };
    expect(refused(() => parseSurfacePageMessage(pageMessage({ message: large }), INSTANCE))[0]?.code).toBe(
      'too_large',
    );
    // An mcp message is not a page message, and a page message is not a Surface's or a view's.
    expect(refused(() => parseSurfacePageMessage(rpc(), INSTANCE))[0]).toMatchObject({ path: 'type' });
    expect(refused(() => parseSurfaceMcpMessage(pageMessage(), INSTANCE))[0]).toMatchObject({ path: 'type' });
    expect(refused(() => parseSurfaceMessageFromFrame(pageMessage(), INSTANCE))[0]).toMatchObject({
      path: 'type',
    });
  });

  it("a Surface's parsers refuse mcp messages either way", () => {
    expect(refused(() => parseSurfaceMessageFromFrame(rpc(), INSTANCE))[0]).toMatchObject({ path: 'type' });
    expect(refused(() => parseSurfaceMessageToFrame(rpc(), INSTANCE))[0]).toMatchObject({ path: 'type' });
  });
});
