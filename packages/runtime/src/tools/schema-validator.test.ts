import { describe, expect, it } from 'vitest';
import { compiledSchemaCount, matchesSchema } from './schema-validator.js';

describe('matchesSchema', () => {
  it('compiles a schema once however many copies of it are read', () => {
    const schema = () => ({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    const before = compiledSchemaCount();
    for (let copy = 0; copy < 50; copy++) {
      expect(matchesSchema(schema(), { n: copy })).toBe(true);
      expect(matchesSchema(schema(), { n: 'x' })).toBe(false);
    }
    expect(compiledSchemaCount()).toBe(before + 1);
  });

  it('keeps a bounded number of compiled schemas', () => {
    for (let index = 0; index < 600; index++)
      expect(matchesSchema({ type: 'integer', minimum: index }, index)).toBe(true);
    expect(compiledSchemaCount()).toBe(512);
    // An evicted schema still validates: it is compiled again.
    expect(matchesSchema({ type: 'integer', minimum: 0 }, -1)).toBe(false);
  });

  it('a schema AJV cannot compile accepts nothing', () => {
    expect(matchesSchema({ type: 'not-a-type' }, 1)).toBe(false);
  });
});
