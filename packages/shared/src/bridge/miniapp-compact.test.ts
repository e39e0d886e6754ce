/**
 * The zod-free page parsers of `lineup.miniapp.v1` against the zod ones: every valid message of the rule tables
 * parses to the same deep-frozen copy, every rejection row is rejected, and over generated valid messages, their
 * one-field mutations, boundary values and arbitrary JavaScript values, both parsers accept exactly the same
 * inputs and return equal messages. Their errors differ only in wording and count (the compact one names its
 * first problem).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base,
  FROM_FRAME_REJECTIONS,
  INSTANCE,
  type J,
  TO_FRAME_REJECTIONS,
  VALID_FROM_FRAME,
  VALID_TO_FRAME,
} from '../../test/miniapp-messages.js';
import {
  expectDeepFrozen,
  issuesOf,
  paths,
  protocolOutcome,
  setAt,
  throwingGetter,
} from '../../test/utils.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { parseMiniAppMessageFromFrame, parseMiniAppMessageToFrame } from './miniapp.js';
import { parseMiniAppMessageFromFrameCompact, parseMiniAppMessageToFrameCompact } from './miniapp-compact.js';
import { MINIAPP_CHANNEL_LIMITS as LIMITS } from './miniapp-constants.js';

const DIRECTIONS = [
  { name: 'to the frame', zod: parseMiniAppMessageToFrame, compact: parseMiniAppMessageToFrameCompact },
  { name: 'from the frame', zod: parseMiniAppMessageFromFrame, compact: parseMiniAppMessageFromFrameCompact },
] as const;

const outcome = protocolOutcome;

/** Both parsers of each direction, for `instance` (default: the message's own): the same answer. */
function expectAgreement(input: unknown, instance: string = INSTANCE): void {
  for (const direction of DIRECTIONS) {
    const full = outcome(() => direction.zod(input, instance));
    const compact = outcome(() => direction.compact(input, instance));
    expect(compact === undefined, `${direction.name}: compact accepts iff zod accepts`).toBe(
      full === undefined,
    );
    if (compact !== undefined) {
      expect(compact).toEqual(full);
      expect(compact).not.toBe(input);
      expectDeepFrozen(compact);
    }
  }
}

describe('the rule tables', () => {
  it.each([...VALID_TO_FRAME, ...VALID_FROM_FRAME])('accepts %s as zod does', (_rule, input) => {
    expectAgreement(input);
    const direction = VALID_TO_FRAME.some(([, message]) => message === input) ? DIRECTIONS[0] : DIRECTIONS[1];
    expect(direction.compact(input, INSTANCE)).toEqual(input);
  });

  it.each(
    [
      ...TO_FRAME_REJECTIONS.map((row) => [row.rule, row, DIRECTIONS[0]] as const),
      ...FROM_FRAME_REJECTIONS.map((row) => [row.rule, row, DIRECTIONS[1]] as const),
    ].map(([rule, row, direction]) => [`${direction.name}: ${rule}`, row, direction] as const),
  )('rejects %s', (_rule, row, direction) => {
    const issues = issuesOf(() => direction.compact(row.input(), INSTANCE));
    expect(issues).toHaveLength(1);
  });
});

describe('what the compact parser reports', () => {
  it('names the first problem with its path and never echoes the value', () => {
    const input = {
      ...base,
      type: 'tool_return',
      invocation_id: 'i1',
      status: 'ok',
      result: { a: [1, 'x', NaN] },
    };
    expect(issuesOf(() => parseMiniAppMessageFromFrameCompact(input, INSTANCE))).toEqual([
      { path: 'result.a[2]', code: 'invalid_json', message: 'Numbers must be finite.' },
    ]);
  });

  it('never runs a getter, and reads a throwing Proxy as not JSON', () => {
    const input = Object.defineProperty({ ...base, type: 'app_ready' }, 'x', {
      get: throwingGetter,
      enumerable: true,
    });
    expect(issuesOf(() => parseMiniAppMessageFromFrameCompact(input, INSTANCE))[0]?.code).toBe(
      'invalid_json',
    );
    const trap = new Proxy({}, { ownKeys: () => throwingGetter() });
    expect(issuesOf(() => parseMiniAppMessageToFrameCompact(trap))[0]?.code).toBe('invalid_json');
  });

  it('a message for another instance is refused; without an expected instance, any valid one passes', () => {
    const input = { ...base, type: 'lifecycle', phase: 'close' };
    expect(issuesOf(() => parseMiniAppMessageToFrameCompact(input, 'other'))[0]?.path).toBe('instance_id');
    expect(parseMiniAppMessageToFrameCompact(input).instance_id).toBe(INSTANCE);
  });
});

describe('the budgets, at the bound and one past it, agree', () => {
  const nest = (levels: number): J => {
    let value: J = 1;
    for (let level = 0; level < levels; level++) value = [value];
    return value;
  };
  const snapshot = (value: unknown) => ({ ...base, type: 'session_data', revision: 1, data: { a: value } });
  const result = (value: unknown) => ({
    ...base,
    type: 'tool_return',
    invocation_id: 'i',
    status: 'ok',
    result: value,
  });
  it.each([
    ['depth 128', result(nest(127)), true],
    ['depth 129', result(nest(128)), false],
    ['65,536 values', snapshot(new Array(UI_LIMITS.maxJsonValues - 7).fill(0)), true],
    ['65,537 values', snapshot(new Array(UI_LIMITS.maxJsonValues - 6).fill(0)), false],
    ['a result of the bound', result('x'.repeat(LIMITS.maxToolResultBytes - 2)), true],
    ['a result one byte past', result('x'.repeat(LIMITS.maxToolResultBytes - 1)), false],
    ['multi-byte text at the bound', result('é'.repeat((LIMITS.maxToolResultBytes - 2) / 2)), true],
    ['astral text one byte past', result(`xxx${'😀'.repeat((LIMITS.maxToolResultBytes - 4) / 4)}`), false],
    ['a lone surrogate (escaped, 6 bytes)', result('\ud800'.repeat(10)), true],
    [
      'an error message of 512 code points (astral)',
      { ...base, type: 'app_failed', error: { code: 'x', message: '😀'.repeat(512) } },
      true,
    ],
    [
      'an error message of 513 code points',
      { ...base, type: 'app_failed', error: { code: 'x', message: '😀'.repeat(513) } },
      false,
    ],
    [
      'a scalar of 4,096 code points',
      { ...base, type: 'ui_action', request_id: 'r', action: 'a', arguments: { s: 'x😀'.repeat(2_048) } },
      true,
    ],
    [
      'a scalar of 4,097 code points',
      { ...base, type: 'ui_action', request_id: 'r', action: 'a', arguments: { s: 'x'.repeat(4_097) } },
      false,
    ],
    [
      'a number of 1e15',
      { ...base, type: 'ui_action', request_id: 'r', action: 'a', arguments: { n: -1e15 } },
      true,
    ],
    [
      'a number just past 1e15',
      { ...base, type: 'ui_action', request_id: 'r', action: 'a', arguments: { n: 1e15 + 1 } },
      false,
    ],
  ] as const)('%s', (_rule, input, accepted) => {
    const compact =
      input.type === 'session_data' ? parseMiniAppMessageToFrameCompact : parseMiniAppMessageFromFrameCompact;
    expect(outcome(() => compact(input, INSTANCE)) !== undefined).toBe(accepted);
    expectAgreement(input);
  });
});

describe('properties: compact and zod agree', () => {
  const id = fc.stringMatching(/^[A-Za-z0-9._:-]{1,12}$/);
  const token = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
  const text = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom('\ud800', '\udc00x', '😀', ''),
  );
  const data = fc.jsonValue({ maxDepth: 3 });
  const issue = fc.record({
    path: fc.oneof(
      fc.stringMatching(/^(?:\$|[a-z]{1,4}(?:\[(?:\d{1,3}|\*)\]|\.[a-z]{1,4}){0,3})$/),
      fc.string({ maxLength: 8 }),
    ),
    code: fc.constantFrom('invalid_type', 'missing_property', 'too_small', 'string_too_long'),
  });
  const error = fc.record(
    { code: token, message: text, issues: fc.array(issue, { minLength: 0, maxLength: 4 }) },
    { requiredKeys: ['code'] },
  );
  const scalar = fc.oneof(
    text,
    fc.double({ min: -2e15, max: 2e15, noNaN: true }),
    fc.constantFrom(1e15, -1e15, 1e15 + 1, -1e15 - 1, 1.2e15),
    fc.boolean(),
    fc.constant(null),
  );
  const revision = fc.oneof(fc.nat(), fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 1.5, 2 ** 53));
  const message = (type: string, fields: Record<string, fc.Arbitrary<unknown>>, optional: string[] = []) =>
    fc.record(
      {
        namespace: fc.constant(base.namespace),
        type: fc.constant(type),
        instance_id: fc.constant(INSTANCE),
        ...fields,
      } as Record<string, fc.Arbitrary<unknown>>,
      {
        requiredKeys: [
          'namespace',
          'type',
          'instance_id',
          ...Object.keys(fields).filter((key) => !optional.includes(key)),
        ],
      },
    );
  const valid = fc.oneof(
    message('tool_invocation', {
      invocation_id: id,
      app_scope: token,
      method: fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,8}$/),
      arguments: fc.dictionary(fc.string({ maxLength: 6 }), data, { maxKeys: 4 }),
    }),
    message('tool_invocation_cancel', { invocation_id: id }),
    message('session_data', {
      revision,
      data: fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9._:-]{0,8}$/), data, { maxKeys: 4 }),
    }),
    message('lifecycle', { phase: fc.constantFrom('foreground', 'background', 'close', 'hidden') }),
    message('request_result', { request_id: id, status: fc.constant('ok'), revision }, ['revision']),
    message('request_result', { request_id: id, status: fc.constant('error'), error }),
    message('app_ready', {}),
    message('app_failed', { error }),
    message('tool_return', { invocation_id: id, status: fc.constant('ok'), result: data }),
    message('tool_return', { invocation_id: id, status: fc.constant('error'), error }),
    message(
      'session_data_write',
      {
        request_id: id,
        key: fc.stringMatching(/^[A-Za-z][A-Za-z0-9._:-]{0,8}$/),
        value: data,
        base_revision: revision,
      },
      ['base_revision'],
    ),
    message('ui_action', {
      request_id: id,
      action: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,4}(?:\.[A-Za-z][A-Za-z0-9_-]{0,4}){0,2}$/),
      arguments: fc.dictionary(
        fc.oneof(
          fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,6}$/),
          fc.constantFrom('constructor', 'prototype', '_x', 'a.b'),
        ),
        scalar,
        { maxKeys: 4 },
      ),
    }),
  );
  /** What a mutation writes: other JSON, the wrong kind, out-of-range numbers, names of other rules. */
  const replacement = fc.oneof(
    data,
    scalar,
    revision,
    id,
    token,
    fc.constantFrom<unknown>(
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      1e16,
      {},
      [],
      null,
      'lineup.surface.v1',
      'x'.repeat(200),
      'A',
      '9a',
      'a b',
    ),
    fc.constantFrom<unknown>(
      new Date(0),
      Object.create(null),
      JSON.parse('{"__proto__":1}'),
      () => 1,
      10n,
      Symbol('s'),
    ),
  );

  it('on generated valid messages', () => {
    fc.assert(
      fc.property(valid, (input) => expectAgreement(input)),
      { numRuns: 1_500 },
    );
  });

  it('on valid messages with one value replaced, removed or added', () => {
    fc.assert(
      fc.property(
        valid,
        fc.nat(),
        fc.nat(3),
        replacement,
        fc.string({ maxLength: 6 }),
        (input, at, kind, value, key) => {
          const targets = paths(input);
          const path = targets[at % targets.length] as (string | number)[];
          let mutated: J = JSON.parse(JSON.stringify(input));
          if (kind === 0) mutated = setAt(mutated, path, value);
          else if (kind === 1 && path.length > 0) {
            const parent = path.slice(0, -1).reduce((node: J, segment) => node[segment], mutated);
            if (Array.isArray(parent)) parent.splice(path[path.length - 1] as number, 1);
            else delete parent[path[path.length - 1] as string];
          } else {
            const holder = path.reduce((node: J, segment) => node[segment], mutated);
            if (typeof holder === 'object' && holder !== null && !Array.isArray(holder))
              setAt(mutated, [...path, key], value);
            else mutated = setAt(mutated, path, value);
          }
          expectAgreement(mutated);
          expectAgreement(mutated, 'another.instance');
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('on arbitrary JavaScript values', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.anything({ withNullPrototype: true, withObjectString: true })),
        (input) => expectAgreement(input),
      ),
      { numRuns: 500 },
    );
  });
});
