/**
 * `parseDocument`: the trust boundary of every Intelligent UI document (seed 002 §2–§11). One pass proves the
 * input is safe JSON within budget, a second walks it once to check structure, references, static types and
 * cross-component domains (validate-*.ts, with each component's props checked through the component table),
 * and a third evaluates every derived field, display value and `set` value in the default state. Only then is
 * a deep-frozen copy returned. JSON data that this package's envelope reader copied, froze and measured (an
 * agent's `ui.document`) skips the first pass when its measure is within the budget, and the copy when it holds
 * no `-0`: it is returned itself, as nothing can change it.
 */

import { UISchemaError } from '../errors/errors.js';
import { IssueCollector } from '../errors/issues.js';
import { measureSafeJSON, type SafeJSONBudget } from '../json/safe-json.js';
import { safeJSONMeasureOf } from '../json/safe-json-copy.js';
import { MIN_HOST_DOCUMENT_BYTES, UI_LIMITS } from '../limits/ui-limits.js';
import { frozenCopy, frozenCopySharing } from './copy.js';
import type { UIDocument } from './types.js';
import { type DocumentIndex, DocumentValidator } from './validate-document.js';
import type { JSONObject } from './validate-structure.js';

export type { DocumentIndex } from './validate-document.js';

export interface ParseDocumentOptions {
  /**
   * A host's generation limit in UTF-8 bytes: it may lower the shared 262,144-byte budget down to 1,024, never
   * raise it (seed 002 §9).
   */
  readonly maxDocumentBytes?: number;
}

const indexes = new WeakMap<object, DocumentIndex>();

/**
 * Validates an untrusted, already decoded JSON value as a 1.0 or 1.1 document. Returns a deep-frozen copy
 * (the input is never modified), or throws `UISchemaError` with at most 20 located issues. A document this
 * function returned is returned as is, and so is JSON data this package's envelope reader made (the
 * `payload.document` of a `ui.document` from `parseEnvelope`): already deep-frozen and measured, it needs no copy
 * unless it holds a `-0`.
 */
export function parseDocument(input: unknown, options: ParseDocumentOptions = {}): UIDocument {
  const maxBytes = resolveMaxDocumentBytes(options.maxDocumentBytes);
  if (typeof input === 'object' && input !== null && indexes.has(input)) {
    // Already validated and frozen by this module; still honour a lower host budget.
    if (maxBytes === UI_LIMITS.maxDocumentBytes) return input as UIDocument;
  }
  return validateAndCopy(input, maxBytes, null);
}

/**
 * Internal (component streams): validates `input` exactly as `parseDocument` does, with the same issues, and
 * returns a frozen copy that shares every part equal to `base`'s (copy.ts), or `base` itself when the content
 * is the same. `base` must be a document this module validated.
 */
export function parseDocumentSharing(input: unknown, base: UIDocument): UIDocument {
  if (!indexes.has(base))
    throw new TypeError('parseDocumentSharing: the base document did not come from parseDocument.');
  return validateAndCopy(input, UI_LIMITS.maxDocumentBytes, base);
}

function validateAndCopy(input: unknown, maxBytes: number, base: UIDocument | null): UIDocument {
  const issues = new IssueCollector();
  const budget: SafeJSONBudget = {
    maxBytes,
    maxDepth: UI_LIMITS.maxJsonDepth,
    maxValues: UI_LIMITS.maxJsonValues,
  };
  // JSON data an envelope's reader copied and measured (an agent's `ui.document`) is known to be safe JSON, and
  // deep-frozen: within the budget it is not walked again, and without a -0 it is not copied again either.
  const measured = safeJSONMeasureOf(input);
  const known =
    measured !== undefined &&
    measured.bytes <= budget.maxBytes &&
    measured.depth <= budget.maxDepth &&
    measured.values <= budget.maxValues;
  if (!known && measureSafeJSON(input, budget, issues) === undefined) throw new UISchemaError(issues.issues);
  const validator = new DocumentValidator(issues);
  validator.validate(input);
  if (!issues.empty) throw new UISchemaError(issues.issues);
  validator.evaluateDefaults();
  if (!issues.empty) throw new UISchemaError(issues.issues);
  if (base !== null) {
    const document = frozenCopySharing(input as JSONObject, base, indexes.get(base)!.nodes);
    if (document === base) return base;
    indexes.set(document, validator.index(document));
    return document;
  }
  const document = (known && !measured.negativeZero ? input : frozenCopy(input)) as UIDocument;
  indexes.set(document, validator.index(document));
  return document;
}

/**
 * The index of a validated document. A document that did not come from `parseDocument` is validated first,
 * so helpers never trust a hand-made object (seed 002 §8: do not bypass document validation).
 */
export function documentIndex(document: UIDocument): { document: UIDocument; index: DocumentIndex } {
  const known = indexes.get(document);
  if (known) return { document, index: known };
  const parsed = parseDocument(document);
  return { document: parsed, index: indexes.get(parsed)! };
}

/**
 * A host's document budget (seed 002 §9: 1,024–262,144 bytes; default the shared maximum). `caller` names the
 * API in the RangeError a wrong value gets. Internal: parseDocument and the agent tools' parseArguments.
 */
export function resolveMaxDocumentBytes(requested: number | undefined, caller = 'parseDocument'): number {
  if (requested === undefined) return UI_LIMITS.maxDocumentBytes;
  if (
    !Number.isInteger(requested) ||
    requested < MIN_HOST_DOCUMENT_BYTES ||
    requested > UI_LIMITS.maxDocumentBytes
  ) {
    throw new RangeError(
      `${caller}: maxDocumentBytes must be an integer from ${MIN_HOST_DOCUMENT_BYTES} to ${UI_LIMITS.maxDocumentBytes}.`,
    );
  }
  return requested;
}
