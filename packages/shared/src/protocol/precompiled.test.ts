/**
 * The precompiled parsers (`precompiled.ts`) against the full path they stand in for — `measureSafeJSON` within
 * the envelope budget, then the zod schema, then `deepFreeze`: whatever they accept, the full path accepts
 * with an equal result (same keys in the same order, fresh and deep-frozen); everything odd they decline, so
 * that the full path decides and reports it. Also: which message types are precompiled, and that the common
 * shapes really take the fast path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clone, paths, setAt, throwingGetter } from '../../test/utils.js';
import { IssueCollector } from '../errors/issues.js';
import { deepFreeze } from '../json/freeze.js';
import { boundedJSONObject, boundedJSONValue, JSONObjectSchema } from '../json/json-data.js';
import { jsonByteLength, measureSafeJSON } from '../json/safe-json.js';
import { LINEUP_ENVELOPE_BUDGET, parseEnvelope } from './envelope.js';
import { LINEUP_MESSAGE_SCHEMAS, type LineUpMessageType } from './envelope-schemas.js';
import { type PrecompiledParser, precompile } from './precompiled.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) values on purpose.
type J = any;

/** The others have a part `precompile` does not read (a refinement, an integer, a format …): the full path. */
const PRECOMPILED_TYPES: LineUpMessageType[] = [
  'lineup.v1.ui.patch',
  'lineup.v1.ui.close',
  'lineup.v1.ui.event',
  'lineup.v1.ui.document',
  'lineup.v1.ui.checkpoint',
  'lineup.v1.tool.call',
  'lineup.v1.tool.progress',
];

const parsers = new Map<string, PrecompiledParser<unknown>>();
for (const type of PRECOMPILED_TYPES) {
  const parser = precompile(LINEUP_MESSAGE_SCHEMAS[type] as z.ZodType<unknown>, LINEUP_ENVELOPE_BUDGET);
  if (parser !== undefined) parsers.set(type, parser);
}
const parserOf = (type: string): PrecompiledParser<unknown> => {
  const parser = parsers.get(type);
  if (parser === undefined) throw new Error(`${type} is not precompiled`);
  return parser;
};

const header = (type: string, kind: 'agent' | 'client') => ({
  v: 1,
  id: 'msg_01',
  type,
  conversation_id: 'conv_01',
  sender: { kind, id: kind === 'agent' ? 'agent_hermes_main' : 'web-host' },
});

/** One valid message of every precompiled type (and two variants of the event). */
const VALID: J[] = [
  {
    ...header('lineup.v1.ui.event', 'client'),
    target: { kind: 'agent', id: 'agent_hermes_main' },
    payload: {
      instance_id: 'weather.dashboard.01',
      event: 'refresh',
      data: { unit: 'c', city: '北京', range: { from: '2026-08-02', days: 7 }, layers: ['temp', 'rain'] },
    },
  },
  {
    ...header('lineup.v1.ui.event', 'client'),
    payload: { instance_id: 'bench.surface', event: 'tick', data: { n: -0, x: 1.5e-7, e: [], o: {} } },
  },
  {
    ...header('lineup.v1.ui.event', 'client'),
    payload: { instance_id: 'i', event: 'close', data: { '0': 1, b: null, a: true, '': 'say "hi"\n' } },
  },
  {
    ...header('lineup.v1.ui.patch', 'agent'),
    payload: { instance_id: 'weather.dashboard.01', state: { city: '上海', temperature: 28 } },
  },
  {
    ...header('lineup.v1.ui.close', 'agent'),
    payload: { instance_id: 'weather.dashboard.01', reason: 'completed' },
  },
  {
    ...header('lineup.v1.ui.document', 'agent'),
    payload: {
      document: {
        version: '1.0',
        title: 'Loan',
        state: { rate: { type: 'number', initial: 3.5 } },
        root: { type: 'Stack', id: 'root', children: [{ type: 'Text', id: 't', props: { text: 'Hi' } }] },
      },
    },
  },
  {
    ...header('lineup.v1.ui.checkpoint', 'agent'),
    payload: { checkpoint: { stream_id: 's', seq: 3, snapshot: { version: '1.0' } } },
  },
  {
    ...header('lineup.v1.tool.call', 'agent'),
    payload: {
      call_id: 'call_1',
      inventory_revision: 'inventory-0',
      tool: 'pomodoro.start',
      arguments: { minutes: 25 },
    },
  },
  {
    ...header('lineup.v1.tool.progress', 'client'),
    payload: { call_id: 'call_1', app_scope: 'pomodoro', status: 'activation_failed', reason: 'user_closed' },
  },
  {
    ...header('lineup.v1.tool.progress', 'client'),
    payload: { call_id: 'call_1', app_scope: 'pomodoro', status: 'accepted' },
  },
];

type Reference = { ok: true; value: unknown } | { ok: false };

/** The full path: safe JSON within the envelope budget, the zod schema, a deep freeze. */
function reference(schema: z.ZodType<unknown>, input: unknown): Reference {
  if (measureSafeJSON(input, LINEUP_ENVELOPE_BUDGET, new IssueCollector()) === undefined)
    return { ok: false };
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: deepFreeze(result.data) } : { ok: false };
}

/** Same keys in the same order, same values, all frozen, no container shared with `input`. */
function expectSameResult(actual: unknown, expected: unknown, input: unknown, path = '$'): void {
  if (typeof expected !== 'object' || expected === null) {
    expect(Object.is(actual, expected), `${path} is ${String(expected)}`).toBe(true);
    return;
  }
  expect(typeof actual, path).toBe('object');
  expect(actual, path).not.toBeNull();
  expect(Object.isFrozen(actual), `${path} is frozen`).toBe(true);
  expect(Array.isArray(actual), `${path} is an array`).toBe(Array.isArray(expected));
  expect(Object.getPrototypeOf(actual), `${path} prototype`).toBe(Object.getPrototypeOf(expected));
  expect(Reflect.ownKeys(actual as object), `${path} keys`).toEqual(Reflect.ownKeys(expected));
  expect(containers(input).has(actual as object), `${path} is a copy`).toBe(false);
  for (const key of Object.keys(expected)) {
    expectSameResult((actual as J)[key], (expected as J)[key], input, `${path}.${key}`);
  }
}

function containers(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value !== 'object' || value === null || into.has(value)) return into;
  into.add(value);
  try {
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor !== undefined && 'value' in descriptor) containers(descriptor.value, into);
    }
  } catch {
    // a Proxy
  }
  return into;
}

/** The precompiled parser of `type` either declines `input` or agrees with the full path. */
function expectAgreement(type: string, input: unknown): unknown {
  expectOwnedAgreement(type, input);
  const fast = parserOf(type)(input);
  if (fast === undefined) return undefined;
  const full = reference(LINEUP_MESSAGE_SCHEMAS[type as LineUpMessageType] as z.ZodType<unknown>, input);
  expect(full.ok, 'the full path accepts what the precompiled parser accepts').toBe(true);
  if (full.ok) expectSameResult(fast, full.value, input);
  return fast;
}

/**
 * The input as JSON text decodes it, given to the parser as its own (`owned`) and as a value it must copy: the
 * same answer, an equal deep-frozen result, and the owned value's JSON data is the result's own (not copied).
 */
function expectOwnedAgreement(type: string, input: unknown): void {
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch {
    return;
  }
  if (text === undefined) return;
  const copied = parserOf(type)(JSON.parse(text));
  const owned = JSON.parse(text);
  const adopted = parserOf(type)(owned, true);
  expect(adopted === undefined, 'owned and copied agree on accepting').toBe(copied === undefined);
  if (adopted === undefined || copied === undefined) return;
  // Equal and deep-frozen; sharing the owned value is the point (no "is a copy" check).
  expectSameResult(adopted, copied, undefined);
  const data = (adopted as J).payload?.document ?? (adopted as J).payload?.arguments;
  const own = owned.payload?.document ?? owned.payload?.arguments;
  if (typeof data === 'object' && data !== null) expect(data).toBe(own);
}

/** Values the JSON arbitraries never produce. */
const ODD_VALUES: (() => unknown)[] = [
  () => undefined,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => -0,
  () => 1n,
  () => Symbol('s'),
  () => () => 1,
  () => new Date(0),
  () => Object.create(null),
  () => Object.assign(Object.create(null), { a: 1 }),
  () => Object.create({ inherited: 1 }),
  () => {
    const sparse = [1];
    sparse[2] = 3;
    return sparse;
  },
  () => Object.assign([1], { extra: true }),
  () => Object.defineProperty({ a: 1 }, 'hidden', { value: 2 }),
  () => ({ a: 1, [Symbol('s')]: 2 }),
  () => Object.defineProperty({}, 'a', { get: throwingGetter, enumerable: true }),
  () => Object.defineProperty({}, 'a', { set: () => {}, enumerable: true }),
  () => Object.defineProperty([1], 0, { get: throwingGetter, enumerable: true }),
  () => Object.defineProperty([1], 0, { set: () => {}, enumerable: true }),
  () => Object.defineProperty({}, '__proto__', { value: { polluted: true }, enumerable: true }),
  () => new Proxy({}, {}),
  () =>
    new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    ),
  () => 'x'.repeat(129),
  () => '\ud83d\ude00'.repeat(64),
  () => 'a\ud800',
  () => 'lineup.v1.ui.open',
  () => 'agent',
  () => 'client',
  () => 2,
];

describe('precompile', () => {
  it('reads the schemas of exactly these message types', () => {
    const precompiled = Object.entries(LINEUP_MESSAGE_SCHEMAS)
      .filter(([, schema]) => precompile(schema as z.ZodType<unknown>, LINEUP_ENVELOPE_BUDGET) !== undefined)
      .map(([type]) => type);
    expect(precompiled).toEqual(PRECOMPILED_TYPES);
  });

  it('declines schemas with parts it does not read', () => {
    const budget = LINEUP_ENVELOPE_BUDGET;
    const unread: z.ZodType<unknown>[] = [
      z.object({ a: z.string() }),
      z.looseObject({ a: z.string() }),
      z.strictObject({ a: z.string().trim() }),
      z.strictObject({ a: z.string().refine((text) => text !== 'x') }),
      z.strictObject({ a: z.string().email() }),
      z.strictObject({ a: z.iso.datetime() }),
      z.strictObject({ a: z.string().startsWith('x') }),
      z.strictObject({ a: z.number().int() }),
      z.strictObject({ a: z.number().min(1) }),
      z.strictObject({ a: z.coerce.number() }),
      z.strictObject({ a: z.string().default('x') }),
      z.strictObject({ a: z.string().nullable() }),
      z.strictObject({ a: z.array(z.string()) }),
      z.strictObject({ a: z.union([z.string(), z.number()]) }),
      z.strictObject({ a: z.string().transform((text) => text.length) }),
      z.strictObject({
        a: z
          .string()
          .optional()
          .refine(() => true),
      }),
      z.strictObject({ a: z.record(z.string(), z.json()) }),
      z.strictObject({ a: JSONObjectSchema.refine(() => true) }),
      z.strictObject({ a: z.string() }).refine(() => true),
      z.strictObject({ ['__proto__']: z.string() } as Record<string, z.ZodType>),
      z.string(),
    ];
    for (const schema of unread) expect(precompile(schema, budget)).toBeUndefined();
  });

  it('reads the JSON data schemas, and their .meta() clones', () => {
    const schema = z.strictObject({
      a: JSONObjectSchema.meta({ description: 'a' }),
      b: boundedJSONValue(10, 'B').exactOptional(),
      c: boundedJSONObject(10, 'C').optional(),
    });
    const parse = precompile(schema, LINEUP_ENVELOPE_BUDGET);
    expect(parse).toBeDefined();
    expect(parse?.({ a: { x: [1] }, b: 'text' })).toEqual({ a: { x: [1] }, b: 'text' });
    expect(parse?.({ a: {}, b: 'more than ten bytes' })).toBeUndefined();
    expect(schema.safeParse({ a: {}, b: 'more than ten bytes' }).success).toBe(false);
  });
});

/**
 * Messages of types left to the full path (refined payloads: the not-blank prompt and the document reference's
 * cross-field rule of `ui.action`, the text for people of `ui.action_result`).
 */
const FULL_PATH_ONLY: J[] = [
  {
    ...header('lineup.v1.ui.action', 'client'),
    payload: {
      operation_id: 'op_0004',
      action_id: 'draft_notes',
      document: { source_call_id: 'call_ui_0008', ui_id: 'helper', generation: 3, revision: 2 },
      prompt: 'Draft the notes.',
    },
  },
  {
    ...header('lineup.v1.ui.action_result', 'agent'),
    payload: { operation_id: 'op_0004', status: 'declined', message: 'Not now.' },
  },
];

describe('types left to the full path', () => {
  it('are not precompiled, and parseEnvelope gives the full path’s result on random mutations of them', () => {
    for (const message of FULL_PATH_ONLY) {
      const schema = LINEUP_MESSAGE_SCHEMAS[message.type as LineUpMessageType] as z.ZodType<unknown>;
      expect(precompile(schema, LINEUP_ENVELOPE_BUDGET), message.type).toBeUndefined();
      expect(PRECOMPILED_TYPES).not.toContain(message.type);
    }
    fc.assert(
      fc.property(
        fc.constantFrom(...FULL_PATH_ONLY),
        fc.nat(),
        fc.oneof(
          fc.jsonValue(),
          fc.constantFrom(...ODD_VALUES).map((make) => make()),
        ),
        (message, pick, replacement) => {
          const all = paths(message);
          const input = setAt(clone(message), all[pick % all.length] as (string | number)[], replacement);
          const full = reference(
            LINEUP_MESSAGE_SCHEMAS[message.type as LineUpMessageType] as z.ZodType<unknown>,
            input,
          );
          let parsed: ReturnType<typeof parseEnvelope> | undefined;
          try {
            parsed = parseEnvelope(input);
          } catch {
            parsed = undefined;
          }
          if (full.ok) {
            expect(parsed?.kind).toBe('message');
            if (parsed?.kind === 'message') expectSameResult(parsed.message, full.value, input);
          } else expect(parsed?.kind).not.toBe('message');
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('precompiled message parsers', () => {
  it('take the fast path for the common shapes, with the full path’s result', () => {
    for (const message of VALID) {
      expect(expectAgreement(message.type, clone(message)), message.type).toBeDefined();
    }
  });

  it('give parseEnvelope the same results', () => {
    for (const message of VALID) {
      const parsed = parseEnvelope(clone(message));
      expect(parsed.kind).toBe('message');
      const full = reference(LINEUP_MESSAGE_SCHEMAS[message.type as LineUpMessageType], clone(message));
      expect(full.ok).toBe(true);
      if (full.ok && parsed.kind === 'message') expectSameResult(parsed.message, full.value, message);
    }
  });

  it('agree with the full path on random mutations of valid messages', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID),
        fc.nat(),
        fc.oneof(
          fc.jsonValue(),
          fc.constantFrom(...ODD_VALUES).map((make) => make()),
        ),
        (message, pick, replacement) => {
          const input = clone(message);
          const all = paths(input);
          expectAgreement(
            message.type,
            setAt(input, all[pick % all.length] as (string | number)[], replacement),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('agree with the full path on arbitrary data, state, arguments and documents', () => {
    const payloadOf: Record<string, (value: J) => J> = {
      'lineup.v1.ui.event': (data) => ({ instance_id: 'i', event: 'e', data }),
      'lineup.v1.ui.patch': (state) => ({ instance_id: 'i', state }),
      'lineup.v1.ui.document': (document) => ({ document }),
      'lineup.v1.tool.call': (args) => ({
        call_id: 'c',
        inventory_revision: 'r',
        tool: 'a.b',
        arguments: args,
      }),
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(payloadOf)),
        fc.oneof(fc.jsonValue(), fc.object(), fc.dictionary(fc.string(), fc.jsonValue())),
        (type, value) => {
          const kind = type === 'lineup.v1.ui.event' ? 'client' : 'agent';
          const input = { ...header(type, kind), payload: (payloadOf[type] as (value: J) => J)(value) };
          expectAgreement(type, input);
          // The same as decoded JSON text is the common case: valid, it never falls back.
          const decoded = clone(input);
          const fast = expectAgreement(type, decoded);
          if (reference(LINEUP_MESSAGE_SCHEMAS[type as LineUpMessageType], decoded).ok)
            expect(fast).toBeDefined();
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('agree with the full path on arbitrary header strings', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('id', 'conversation_id', 'instance_id', 'event', 'kind'),
        fc.oneof(fc.string({ unit: 'binary', maxLength: 140 }), fc.string({ maxLength: 140 })),
        (field, text) => {
          const input = clone(VALID[0]);
          if (field === 'instance_id' || field === 'event') input.payload[field] = text;
          else if (field === 'kind') input.target.kind = text;
          else input[field] = text;
          expectAgreement(input.type, input);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('decline shared references and cycles (zod shares one copy; the full path decides)', () => {
    const shared = { x: 1 };
    const input = clone(VALID[0]);
    input.payload.data = { a: shared, b: shared };
    expect(parserOf(input.type)(input)).toBeUndefined();
    expect(parseEnvelope(input).kind).toBe('message');
    const cyclic = clone(VALID[0]);
    cyclic.payload.data.self = cyclic.payload.data;
    expect(parserOf(cyclic.type)(cyclic)).toBeUndefined();
    expect(() => parseEnvelope(cyclic)).toThrow();
    // A container of the header that also appears in the data is copied twice, by zod as by the parser.
    const twice = clone(VALID[0]);
    twice.payload.data.sender = twice.sender;
    expectAgreement(twice.type, twice);
    expect(parserOf(twice.type)(twice)).toBeDefined();
  });

  it('agree at the depth budget', () => {
    const nested = (levels: number): J => {
      let value: J = 1;
      for (let level = 0; level < levels; level++) value = { a: value };
      return value;
    };
    // The envelope, its payload and the data are 3 levels: the data's own nesting fills the rest.
    const limit = LINEUP_ENVELOPE_BUDGET.maxDepth - 2;
    for (const levels of [limit - 1, limit, limit + 1, limit + 2]) {
      const input = clone(VALID[0]);
      input.payload.data = nested(levels);
      const full = reference(LINEUP_MESSAGE_SCHEMAS['lineup.v1.ui.event'], input);
      const fast = expectAgreement(input.type, input);
      expect(fast !== undefined, `${levels} levels`).toBe(full.ok);
    }
  });

  it('agree at the byte bound of event data, counting escapes and UTF-8 exactly', () => {
    const bound = 16 * 1_024 - 1;
    for (const filler of ['a', '"', '\n', '\u0001', 'é', '北', '\ud83d\ude00', '\ud800']) {
      for (const delta of [-1, 0, 1]) {
        const input = clone(VALID[0]);
        // `{"s":"…"}` is 8 bytes around the text; the filler's bytes as JSON text, then ASCII to the bound.
        const bytes = jsonByteLength(filler) - 2;
        const count = Math.floor((bound - 9) / bytes);
        const text = filler.repeat(count) + 'x'.repeat(bound - 8 - count * bytes + delta);
        input.payload.data = { s: text };
        expect(jsonByteLength(input.payload.data)).toBe(bound + delta);
        const full = reference(LINEUP_MESSAGE_SCHEMAS['lineup.v1.ui.event'], input);
        expect(full.ok, `${JSON.stringify(filler)} ${delta}`).toBe(delta <= 0);
        const fast = expectAgreement(input.type, input);
        expect(fast !== undefined, `${JSON.stringify(filler)} ${delta}`).toBe(full.ok);
      }
    }
  });

  it('step aside while Object.prototype has an enumerable property or a replaced constructor', () => {
    const input = clone(VALID[0]);
    const parse = parserOf(input.type);
    expect(parse(input)).toBeDefined();
    Object.defineProperty(Object.prototype, 'injected', {
      value: 1,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      expect(parse(input)).toBeUndefined();
      expect(reference(LINEUP_MESSAGE_SCHEMAS['lineup.v1.ui.event'], input).ok).toBe(false);
    } finally {
      delete (Object.prototype as J).injected;
    }
    const original = Object.getOwnPropertyDescriptor(Object.prototype, 'constructor') as PropertyDescriptor;
    Object.defineProperty(Object.prototype, 'constructor', { ...original, value: function Other() {} });
    try {
      expect(parse(input)).toBeUndefined();
    } finally {
      Object.defineProperty(Object.prototype, 'constructor', original);
    }
    expect(parse(input)).toBeDefined();
  });

  it('decline an optional field inherited from the prototype (zod would read it)', () => {
    const input = Object.assign(Object.create({ target: { kind: 'agent', id: 'a' } }), clone(VALID[1]));
    expect(parserOf(VALID[1].type)(input)).toBeUndefined();
  });

  it('count string lengths in code points, as zod does', () => {
    const schema = z.strictObject({ s: z.string().min(2).max(3) });
    const parse = precompile(schema, LINEUP_ENVELOPE_BUDGET);
    expect(parse).toBeDefined();
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.string({ unit: 'grapheme', maxLength: 4 }),
        (a, b) => {
          for (const s of [a, b, a + b]) {
            const fast = parse?.({ s });
            expect(fast !== undefined, JSON.stringify(s)).toBe(schema.safeParse({ s }).success);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
