/**
 * Properties of the DSL 1.1 action protocol (seed 002 §11, §13): arbitrary input never making a parser throw
 * anything but `LineUpProtocolError`, a valid input with one value replaced parsing to itself or failing
 * cleanly, and every schema converting to a closed JSON Schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  capabilities,
  capability,
  documentRef,
  query,
  receipt,
  receipts,
  request,
} from '../../test/actions-protocol.js';
import type { J } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import * as protocol from './protocol.js';
import {
  computeParameterHash,
  parseUIActionQuery,
  parseUIActionReceipt,
  parseUIActionReceiptList,
  parseUIActionReserveRequest,
  parseUIActionResult,
  parseUICapabilityCatalog,
  parseUICapabilityDescriptor,
  parseUIDocumentRef,
  UIActionReceiptSchema,
  type UIActionReserveRequest,
} from './protocol.js';

describe('properties', () => {
  const parsers: Record<string, (input: unknown) => unknown> = {
    parseUIDocumentRef,
    parseUIActionReserveRequest,
    parseUIActionQuery,
    parseUIActionResult,
    parseUIActionReceipt,
    parseUICapabilityDescriptor,
    parseUIActionReceiptList,
    parseUICapabilityCatalog,
    computeParameterHash: (input) => computeParameterHash(input as UIActionReserveRequest),
  };

  it('arbitrary JSON or JS values never throw anything but LineUpProtocolError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.anything({ withObjectString: true, withNullPrototype: true, withSparseArray: true }),
          fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
        ),
        (input) => {
          for (const parse of Object.values(parsers)) {
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

  const valid: [string, (input: unknown) => unknown, J][] = [
    ['parseUIDocumentRef', parseUIDocumentRef, documentRef()],
    ['parseUIActionReserveRequest', parseUIActionReserveRequest, request()],
    ['parseUIActionQuery', parseUIActionQuery, query()],
    ['parseUIActionResult', parseUIActionResult, { totalLines: 1, ok: true }],
    ['parseUIActionReceipt', parseUIActionReceipt, receipt()],
    ['parseUICapabilityDescriptor', parseUICapabilityDescriptor, capability()],
    ['parseUIActionReceiptList', parseUIActionReceiptList, receipts(2)],
    ['parseUICapabilityCatalog', parseUICapabilityCatalog, capabilities(2)],
  ];

  it.each(valid)(
    '%s: a valid input with one value replaced parses to itself or fails cleanly',
    (_name, parse, input) => {
      const paths: (string | number)[][] = [];
      const walk = (value: unknown, path: (string | number)[]) => {
        paths.push(path);
        if (typeof value === 'object' && value !== null) {
          for (const [key, child] of Object.entries(value))
            walk(child, [...path, Array.isArray(value) ? Number(key) : key]);
        }
      };
      walk(input, []);
      fc.assert(
        fc.property(
          fc.constantFrom(...paths.filter((path) => path.length > 0)),
          fc.oneof(
            fc.jsonValue({ maxDepth: 2 }),
            fc.constantFrom('__proto__', 'constructor', -1, 2 ** 53, ''),
          ),
          fc.boolean(),
          (path, value, asKey) => {
            const copy = JSON.parse(JSON.stringify(input));
            let parent = copy;
            for (const segment of path.slice(0, -1)) parent = parent[segment];
            const last = path[path.length - 1] as string | number;
            if (asKey && typeof value === 'string' && !Array.isArray(parent)) {
              const moved = parent[last];
              delete parent[last];
              Object.defineProperty(parent, value, {
                value: moved,
                enumerable: true,
                writable: true,
                configurable: true,
              });
            } else {
              Object.defineProperty(parent, last, {
                value,
                enumerable: true,
                writable: true,
                configurable: true,
              });
            }
            try {
              const parsed = parse(copy);
              expect(Object.isFrozen(parsed)).toBe(true);
              expect(parse(parsed)).toEqual(parsed);
            } catch (error) {
              expect(error).toBeInstanceOf(LineUpProtocolError);
            }
          },
        ),
        { numRuns: 200 },
      );
    },
  );
});

describe('JSON Schema', () => {
  const schemas = Object.entries(protocol).filter(([name]) => name.endsWith('Schema'));

  it.each(schemas)('%s converts to JSON Schema', (_name, schema) => {
    expect(() => z.toJSONSchema(schema as z.ZodType)).not.toThrow();
  });

  it('keeps every object closed', () => {
    const receiptSchema = JSON.stringify(z.toJSONSchema(UIActionReceiptSchema));
    expect(receiptSchema).toContain('"additionalProperties":false');
  });
});
