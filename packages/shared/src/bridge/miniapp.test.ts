/**
 * `lineup.miniapp.v1` (seed 003 §3–§8): one row per rule with the issue's code and path, exact limits accepted
 * and one past rejected, no agent or cross-conversation identity anywhere, and arbitrary input never throwing
 * anything but `LineUpProtocolError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FROM_FRAME_REJECTIONS,
  flatOfBytes,
  INJECTED,
  INSTANCE,
  type J,
  stringOfBytes,
  TO_FRAME_REJECTIONS,
  uiAction,
  VALID_FROM_FRAME,
  VALID_TO_FRAME,
} from '../../test/miniapp-messages.js';
import { issuesOf, objectOfBytes } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import { jsonByteLength } from '../json/safe-json.js';
import {
  type MiniAppMessageFromFrame,
  type MiniAppMessageToFrame,
  parseMiniAppMessageFromFrame,
  parseMiniAppMessageToFrame,
} from './miniapp.js';

function expectValid<T>(parse: (input: unknown, instance: string) => T, input: J): T {
  const message = parse(input, INSTANCE);
  expect(message).toEqual(input);
  expect(message).not.toBe(input);
  expect(Object.isFrozen(message)).toBe(true);
  expect(Object.isFrozen(input)).toBe(false);
  return message;
}

describe('parseMiniAppMessageToFrame', () => {
  it.each(VALID_TO_FRAME)('accepts %s', (_rule, input) => {
    const message: MiniAppMessageToFrame = expectValid(parseMiniAppMessageToFrame, input);
    expect(parseMiniAppMessageToFrame(input)).toEqual(message);
  });

  it('pins the size helpers', () => {
    expect(jsonByteLength(objectOfBytes(1_000))).toBe(1_000);
    expect(jsonByteLength(stringOfBytes(1_000))).toBe(1_000);
    expect(jsonByteLength(flatOfBytes(16_384))).toBe(16_384);
  });

  it.each(TO_FRAME_REJECTIONS.map((rejection) => [rejection.rule, rejection] as const))(
    'rejects %s',
    (_rule, rejection) => {
      const issues = issuesOf(() => parseMiniAppMessageToFrame(rejection.input(), INSTANCE));
      expect(issues).toContainEqual(expect.objectContaining({ code: rejection.code, path: rejection.path }));
    },
  );
});

describe('parseMiniAppMessageFromFrame', () => {
  it.each(VALID_FROM_FRAME)('accepts %s', (_rule, input) => {
    const message: MiniAppMessageFromFrame = expectValid(parseMiniAppMessageFromFrame, input);
    expect(message.instance_id).toBe(INSTANCE);
  });

  it.each(FROM_FRAME_REJECTIONS.map((rejection) => [rejection.rule, rejection] as const))(
    'rejects %s',
    (_rule, rejection) => {
      const issues = issuesOf(() => parseMiniAppMessageFromFrame(rejection.input(), INSTANCE));
      expect(issues).toContainEqual(expect.objectContaining({ code: rejection.code, path: rejection.path }));
    },
  );

  it('never echoes a rejected value or key', () => {
    const issues = issuesOf(() =>
      parseMiniAppMessageFromFrame(
        {
          ...uiAction({ action: `${INJECTED} x`, arguments: { [`${INJECTED}.k`]: 1 } }),
          [`${INJECTED}Key`]: 1,
        },
        INSTANCE,
      ),
    );
    expect(issues.length).toBeGreaterThan(1);
    for (const issue of issues) expect(`${issue.path} ${issue.message}`).not.toContain(INJECTED);
  });
});

describe('properties', () => {
  const parsers = [
    (input: unknown) => parseMiniAppMessageFromFrame(input, INSTANCE),
    (input: unknown) => parseMiniAppMessageToFrame(input, INSTANCE),
  ];
  const valid = [...VALID_TO_FRAME, ...VALID_FROM_FRAME].map(([, message]) => message);
  const keys = [...new Set(valid.flatMap((message) => Object.keys(message))), '__proto__', 'call_id'];

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

  it('a valid message with one field replaced by arbitrary JSON parses to itself or fails cleanly', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...valid.filter((message) => jsonByteLength(message) < 4_096)),
        fc.constantFrom(...keys),
        fc.jsonValue({ maxDepth: 3 }),
        (message, key, value) => {
          const input = JSON.parse(JSON.stringify(message));
          Object.defineProperty(input, key, { value, enumerable: true, writable: true, configurable: true });
          for (const parse of parsers) {
            try {
              const parsed = parse(input);
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
