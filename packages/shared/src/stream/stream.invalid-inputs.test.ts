/**
 * Component streaming (seed 002 §12): inputs that are not stream states, an invalid opening document and a bad
 * binding are rejected at their own paths.
 */
import { describe, expect, it } from 'vitest';
import { expectIssue, initial, wire } from '../../test/stream.js';
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from './stream.js';

describe('inputs that are not stream states', () => {
  it.each([
    ['a copy of a state', () => ({ ...startUIStream(initial(), 'call', 1) })],
    ['null as current for advance', () => null],
    ['a plain object', () => ({ seq: 1 })],
  ])('rejects %s', (_name, make) => {
    const current = make() as UIStreamState;
    expectIssue(() => advanceUIStream(current, { type: 'complete' }), '$', 'invalid_value');
    if (current !== null)
      expectIssue(
        () => acceptCheckpoint(current, wire(startUIStream(initial(), 'call', 1))),
        '$',
        'invalid_value',
      );
  });

  it('rejects an invalid opening document at its own paths, and a bad binding', () => {
    const document = initial();
    document.root.children[0].type = 'Panel';
    expectIssue(() => startUIStream(document, 'call', 1), 'root.children[0].type', 'unknown_component');
    expectIssue(() => startUIStream(initial(), '', 1), 'sourceCallId', 'string_too_short');
    expectIssue(() => startUIStream(initial(), 'x'.repeat(257), 1), 'sourceCallId', 'string_too_long');
    expectIssue(() => startUIStream(initial(), 'call\n', 1), 'sourceCallId', 'invalid_value');
    expectIssue(() => startUIStream(initial(), 'call', 0), 'generation', 'number_out_of_range');
    expectIssue(() => startUIStream(initial(), 'call', 1_000_000_001), 'generation', 'number_out_of_range');
    expect(startUIStream(initial(), '~'.repeat(256), 1_000_000_000).generation).toBe(1_000_000_000);
  });
});
