/**
 * The smallest DSL schemas: identifiers, bounded numbers and strings, scalars. On their own so the MiniApp
 * channel (bridge/miniapp.ts) can use them without pulling the expression, action and component schemas into
 * a page's bundle.
 */
import { z } from 'zod';
import { UI_LIMITS } from '../limits/ui-limits.js';

/** seed 002 §2; the lookahead keeps `prototype` and `constructor` out (`__proto__` fails the first letter). */
export const UIIdentifierSchema = z
  .string()
  .regex(/^(?!(?:prototype|constructor)$)[A-Za-z][A-Za-z0-9_-]{0,63}$/)
  .meta({
    id: 'Identifier',
    description: 'Letters, digits, _ and -; starts with a letter; at most 64 characters.',
  });

export const boundedNumber = () => z.number().min(-UI_LIMITS.maxAbsNumber).max(UI_LIMITS.maxAbsNumber);
export const scalarString = () => z.string().max(UI_LIMITS.maxStringLength);
export const ScalarSchema = z
  .union([scalarString(), boundedNumber(), z.boolean(), z.null()])
  .meta({ id: 'Scalar', description: 'Strings ≤ 4,096 UTF-16 units; finite numbers with |x| ≤ 1e15.' });
