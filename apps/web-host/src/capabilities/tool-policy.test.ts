import { describe, expect, it } from 'vitest';
import { parseToolPolicy } from './tool-policy.ts';

describe('LINEUP_TOOL_POLICY', () => {
  it('is no rules when unset or blank', () => {
    expect(parseToolPolicy(undefined)).toEqual([]);
    expect(parseToolPolicy('  ')).toEqual([]);
  });

  it('is a JSON array of rules', () => {
    expect(parseToolPolicy('[{"tools":"files.*","decision":"deny"}]')).toEqual([
      { tools: 'files.*', decision: 'deny' },
    ]);
  });

  it.each([
    ['{nope', 'LINEUP_TOOL_POLICY is not JSON.'],
    ['{"tools":"*","decision":"deny"}', 'LINEUP_TOOL_POLICY is a JSON array of rules'],
  ])('refuses %s', (text, message) => {
    expect(() => parseToolPolicy(text)).toThrow(message);
  });
});
