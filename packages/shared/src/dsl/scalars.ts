/**
 * The smallest DSL schemas: identifiers, bounded numbers and strings, scalars. On their own so the MiniApp
 * channel (bridge/miniapp.ts) can use them without pulling the expression, action and component schemas into
 * a page's bundle.
 */
import { z } from 'zod';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { UI_IDENTIFIER_PATTERN } from '../names/patterns.js';

/** seed 002 §2 (`UI_IDENTIFIER_PATTERN`). */
export const UIIdentifierSchema = z.string().regex(UI_IDENTIFIER_PATTERN).meta({
  id: 'Identifier',
  description: 'Letters, digits, _ and -; starts with a letter; at most 64 characters.',
});

export const boundedNumber = () => z.number().min(-UI_LIMITS.maxAbsNumber).max(UI_LIMITS.maxAbsNumber);
export const scalarString = () => z.string().max(UI_LIMITS.maxStringLength);
export const ScalarSchema = z
  .union([scalarString(), boundedNumber(), z.boolean(), z.null()])
  .meta({ id: 'Scalar', description: 'Strings ≤ 4,096 UTF-16 units; finite numbers with |x| ≤ 1e15.' });
