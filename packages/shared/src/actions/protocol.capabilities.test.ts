/**
 * Capabilities in the DSL 1.1 action protocol (seed 002 §11, §13): capability descriptors and catalogs, one
 * row per field rule with the issue's code and path; exact limits (bytes, counts, lengths) accepted and one
 * past rejected; and a catalog checked shell first and then per descriptor, never as one aggregate.
 */
import { describe, expect, it } from 'vitest';
import {
  capabilities,
  capability,
  expectAccepted,
  expectRejections,
  growTo,
  WRONG_TYPE,
} from '../../test/actions-protocol.js';
import { issuesOf, type J, json, row } from '../../test/utils.js';
import { jsonByteLength } from '../json/safe-json.js';
import { UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import {
  parseUICapabilityCatalog,
  parseUICapabilityDescriptor,
  UI_CAPABILITY_RISKS,
  UICapabilityCatalogSchema,
} from './protocol.js';

describe('parseUICapabilityDescriptor', () => {
  it.each([
    ['a read capability', capability()],
    ...UI_CAPABILITY_RISKS.map((risk): [string, J] => [`risk ${risk}`, capability({ risk })]),
    ['an empty description and no public fields', capability({ description: '', resultFields: [] })],
    [
      'a title of 256 and a description of 4,096',
      capability({ title: 't'.repeat(256), description: 'd'.repeat(4_096) }),
    ],
    ['32 public fields', capability({ resultFields: Array.from({ length: 32 }, (_, index) => `f${index}`) })],
    ['deep parameters', capability({ parameters: { a: { b: { c: { d: { e: [1, { f: null }] } } } } } })],
  ])('accepts %s', (_rule, input) => {
    expectAccepted(parseUICapabilityDescriptor, input);
  });

  it('accepts exactly 65,536 bytes and rejects 65,537', () => {
    const at = (bytes: number) => {
      const input = capability({ parameters: {} });
      return growTo(input, input.parameters, bytes);
    };
    expect(() => parseUICapabilityDescriptor(at(UI_PROTOCOL_LIMITS.maxCapabilityBytes))).not.toThrow();
    expect(
      issuesOf(() => parseUICapabilityDescriptor(at(UI_PROTOCOL_LIMITS.maxCapabilityBytes + 1))),
    ).toEqual([expect.objectContaining({ code: 'too_large', path: '$' })]);
  });

  expectRejections(parseUICapabilityDescriptor, [
    row('an id not an identifier', () => capability({ id: 'read.file' }), 'invalid_value', 'id'),
    row('a title empty', () => capability({ title: '' }), 'string_too_short', 'title'),
    row('a title of 257', () => capability({ title: 't'.repeat(257) }), 'string_too_long', 'title'),
    row(
      'a description of 4,097',
      () => capability({ description: 'd'.repeat(4_097) }),
      'string_too_long',
      'description',
    ),
    row('an unknown risk', () => capability({ risk: 'restricted' }), 'invalid_value', 'risk'),
    row('parameters an array', () => capability({ parameters: [] }), WRONG_TYPE, 'parameters'),
    row('parameters a string', () => capability({ parameters: '{}' }), WRONG_TYPE, 'parameters'),
    row(
      'parameters with a nested __proto__',
      () => capability({ parameters: json('{"properties":{"__proto__":{}}}') }),
      'invalid_identifier',
      'parameters.properties',
    ),
    row(
      '33 public fields',
      () => capability({ resultFields: Array.from({ length: 33 }, (_, index) => `f${index}`) }),
      'too_many',
      'resultFields',
    ),
    row(
      'a duplicate public field',
      () => capability({ resultFields: ['a', 'b', 'a'] }),
      'duplicate_id',
      'resultFields[2]',
    ),
    row(
      'a public field path',
      () => capability({ resultFields: ['result.user'] }),
      'invalid_value',
      'resultFields[0]',
    ),
    row('a tool name', () => capability({ toolName: 'read' }), 'unknown_property', '$'),
    row('an execution URL', () => capability({ url: 'https://example.com' }), 'unknown_property', '$'),
  ]);
});

describe('parseUICapabilityCatalog', () => {
  it('accepts an empty catalog and one of 64', () => {
    expect(parseUICapabilityCatalog([])).toEqual([]);
    expectAccepted(parseUICapabilityCatalog, capabilities(UI_PROTOCOL_LIMITS.maxCapabilities));
  });

  it('checks each descriptor against its own budget, not the aggregate', () => {
    const large = (index: number) => {
      const input = capability({ id: `cap${index}`, parameters: {} });
      return growTo(input, input.parameters, 60_000);
    };
    const catalog = [large(0), large(1)];
    expect(jsonByteLength(catalog)).toBeGreaterThan(UI_PROTOCOL_LIMITS.maxCapabilityBytes);
    expect(parseUICapabilityCatalog(catalog)).toHaveLength(2);
  });

  expectRejections(parseUICapabilityCatalog, [
    row('65 descriptors', () => capabilities(UI_PROTOCOL_LIMITS.maxCapabilities + 1), 'too_many', '$'),
    row('an object', () => ({ read_file: capability() }), 'invalid_type', '$'),
    row('a duplicate id', () => [capability(), capability({ title: 'Again' })], 'duplicate_id', '[1].id'),
    row(
      'an invalid descriptor',
      () => [capability(), capability({ id: 'b', risk: 'admin' })],
      'invalid_value',
      '[1].risk',
    ),
  ]);

  it('agrees with UICapabilityCatalogSchema on duplicates and count', () => {
    expect(UICapabilityCatalogSchema.safeParse(capabilities(2)).success).toBe(true);
    expect(UICapabilityCatalogSchema.safeParse([capability(), capability()]).success).toBe(false);
    expect(UICapabilityCatalogSchema.safeParse(capabilities(65)).success).toBe(false);
  });
});
