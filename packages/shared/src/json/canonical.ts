/**
 * Canonical JSON: one text per JSON value, whatever the key order it was built with, and its SHA-256.
 * Used to bind content (a document reference, an action's parameters) to a receipt; a matching hash is
 * not an authorization (seed 002 §8, §11).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { UISchemaError } from '../errors/errors.js';
import { IssueCollector } from '../errors/issues.js';
import { DOCUMENT_JSON_BUDGET, measureSafeJSON, type SafeJSONBudget } from './safe-json.js';

const { keys: objectKeys } = Object;
const { isArray } = Array;
const { stringify } = JSON;

/**
 * `input` as JSON text with every object's keys sorted by UTF-16 code units and no whitespace; strings and
 * numbers are written exactly as `JSON.stringify` writes them. For values without lone surrogates this is
 * the RFC 8785 (JCS) form. Throws `UISchemaError` unless `input` is safe JSON within `budget`.
 */
export function canonicalJSONString(input: unknown, budget: SafeJSONBudget = DOCUMENT_JSON_BUDGET): string {
  const issues = new IssueCollector();
  if (measureSafeJSON(input, budget, issues) === undefined) throw new UISchemaError(issues.issues);
  return writeCanonical(input);
}

/** Lowercase hex SHA-256 (64 characters) of the UTF-8 bytes of `canonicalJSONString(input, budget)`. */
export function hashCanonicalJSON(input: unknown, budget: SafeJSONBudget = DOCUMENT_JSON_BUDGET): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJSONString(input, budget))));
}

/**
 * Writes a value that `measureSafeJSON` accepted: plain data properties only, so reading them runs no code,
 * and the recursion is bounded by the budget's depth.
 */
function writeCanonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return stringify(value);
  if (isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      text += writeCanonical(value[index]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, which is the order canonical JSON requires.
  const keys = objectKeys(record).sort();
  let text = '{';
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (index > 0) text += ',';
    text += `${stringify(key)}:${writeCanonical(record[key])}`;
  }
  return `${text}}`;
}
