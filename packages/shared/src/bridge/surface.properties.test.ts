/**
 * `lineup.surface.v1` (seed 000 §2.4, §4.1–§4.3), properties of its parsers: arbitrary input never makes a
 * parser throw anything but `LineUpProtocolError`, and whatever passes parses to itself again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { event, INSTANCE, ready, resize, state } from '../../test/surface.js';
import { LineUpProtocolError } from '../errors/errors.js';
import {
  parseSurfaceMessageFromFrame,
  parseSurfaceMessageToFrame,
  SurfaceMessageFromFrameSchema,
} from './surface.js';

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
