import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IssueCollector } from '../errors/issues.js';
import { measureSafeJSON } from './safe-json.js';
import { scanJSONText } from './text-scan.js';

/** What `measureSafeJSON` says of the decoded value under a depth and value budget (bytes unbounded). */
function verdictOfValue(value: unknown, maxDepth: number, maxValues: number): string | undefined {
  const issues = new IssueCollector();
  measureSafeJSON(value, { maxBytes: Number.MAX_SAFE_INTEGER, maxDepth, maxValues }, issues);
  return issues.issues[0]?.code;
}

describe('scanJSONText', () => {
  it('agrees with measureSafeJSON on the depth and value budgets of any JSON text', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        (value, maxDepth, maxValues, pretty) => {
          const text = JSON.stringify(value, null, pretty ? 2 : undefined);
          const decoded = JSON.parse(text);
          // Each budget alone gives the same code; with both exceeded, either code may come first (the walk of
          // the value sees a container's size before its depth, the scan of the text cannot).
          expect(scanJSONText(text, { maxDepth, maxValues: 1e9 }).exceeded).toBe(
            verdictOfValue(decoded, maxDepth, 1e9),
          );
          expect(scanJSONText(text, { maxDepth: 1e9, maxValues }).exceeded).toBe(
            verdictOfValue(decoded, 1e9, maxValues),
          );
          expect(scanJSONText(text, { maxDepth, maxValues }).exceeded === undefined).toBe(
            verdictOfValue(decoded, maxDepth, maxValues) === undefined,
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('counts strings with quotes, backslashes and brackets inside them as one value each', () => {
    const text = JSON.stringify({ a: 'x\\"[[{{', b: ['\\', '"]}', 'é\u2028'], '"k\\': '{' });
    // The object, a, b, b's three strings and the last member: 7 values, 2 levels.
    expect(scanJSONText(text, { maxDepth: 2, maxValues: 7 }).exceeded).toBeUndefined();
    expect(scanJSONText(text, { maxDepth: 2, maxValues: 6 }).exceeded).toBe('too_many');
    expect(scanJSONText(text, { maxDepth: 1, maxValues: 7 }).exceeded).toBe('too_deep');
  });

  it('stops at the first level past the budget of a megabyte of nesting', () => {
    const text = `${'['.repeat(600_000)}${']'.repeat(600_000)}`;
    expect(scanJSONText(text, { maxDepth: 132, maxValues: 262_144 }).exceeded).toBe('too_deep');
    // A control: within the budget, the same shape is fine.
    expect(scanJSONText('[[[]]]', { maxDepth: 3, maxValues: 10 }).exceeded).toBeUndefined();
  });

  it('keeps the literals of the members it is asked for, and only those', () => {
    const text = JSON.stringify({
      v: 1,
      id: 'msg_7',
      type: 'lineup.v1.tool.call',
      payload: { call_id: 'call_9', arguments: { id: 'inner', call_id: 'deeper' } },
      conversation_id: 'conv_1',
      sender: { kind: 'agent', id: 'nested' },
    });
    const scan = scanJSONText(
      text,
      { maxDepth: 10, maxValues: 100 },
      { capture: [['id'], ['conversation_id'], ['v'], ['sender'], ['payload', 'call_id']] },
    );
    expect(Object.fromEntries(scan.captured)).toEqual({
      v: '1',
      id: '"msg_7"',
      conversation_id: '"conv_1"',
      'payload.call_id': '"call_9"',
    });
  });

  it('finds captured members with escaped keys, and the last of a repeated key (as JSON.parse does)', () => {
    const text = '{"\\u0069d":"first","id":"second","payload":{"call\\u005fid":"c"}}';
    const scan = scanJSONText(
      text,
      { maxDepth: 4, maxValues: 10 },
      { capture: [['id'], ['payload', 'call_id']] },
    );
    expect(scan.captured.get('id')).toBe('"second"');
    expect(scan.captured.get('payload.call_id')).toBe('"c"');
    expect((JSON.parse(text) as { id: string }).id).toBe('second');
  });

  it('reads no further than maxChars', () => {
    const text = `{"id":"m1","conversation_id":"c1","payload":{"text":"${'x'.repeat(100)}"},"type":"t"}`;
    const scan = scanJSONText(
      text,
      { maxDepth: 4, maxValues: 10 },
      { capture: [['id'], ['conversation_id'], ['type']], maxChars: 60 },
    );
    expect(Object.fromEntries(scan.captured)).toEqual({ id: '"m1"', conversation_id: '"c1"' });
  });

  it('never throws on text that is not JSON, and leaves a long literal out', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        scanJSONText(text, { maxDepth: 3, maxValues: 20 }, { capture: [['id'], ['payload', 'call_id']] });
      }),
      { numRuns: 2_000 },
    );
    const long = JSON.stringify({ id: 'x'.repeat(2_000) });
    expect(scanJSONText(long, { maxDepth: 2, maxValues: 5 }, { capture: [['id']] }).captured.size).toBe(0);
  });
});
