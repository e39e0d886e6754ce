/**
 * UTF-8 lengths of text and of JSON text, counted without building the string `JSON.stringify` or
 * `TextEncoder` would produce: what the safe-JSON walk and copy add up, and what the protocol measures.
 */

import { SAFE_JSON_INTRINSICS } from './safe-json-intrinsics.js';

const { isFiniteNumber } = SAFE_JSON_INTRINSICS;

/**
 * An upper bound of the UTF-8 length of `JSON.stringify(value)` for a JSON primitive (exact but for strings,
 * which count 6 bytes a UTF-16 unit: no unit takes more, escaped), or -1 for anything else.
 */
export function jsonPrimitiveBytesBound(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2;
    case 'number':
      return isFiniteNumber(value) ? numberBytes(value) : -1;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return value === null ? 4 : -1;
    default:
      return -1;
  }
}

/**
 * The UTF-8 length of `text` as `TextEncoder` encodes it: a lone surrogate becomes U+FFFD (3 bytes).
 * Inside JSON text a lone surrogate is escaped instead (`\udXXX`, 6 bytes); `jsonByteLength` counts that.
 */
export function utf8ByteLength(text: string): number {
  const length = text.length;
  let bytes = length;
  for (let index = 0; index < length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit < 0xdc00 && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 2; // a pair: 2 units, 4 bytes
      index++;
    } else bytes += 2; // the rest of the BMP, and a lone surrogate as U+FFFD
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit < 0xe000;
}

/**
 * UTF-8 length of `JSON.stringify(text)`, quotes included. Most strings of a document are printable ASCII
 * without `"` or `\`, where the answer is the length plus 2; the first other unit switches to exact
 * escaping from there on.
 */
export function jsonStringBytes(text: string): number {
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x20 || unit > 0x7e || unit === 0x22 || unit === 0x5c) {
      return 2 + index + escapedBytes(text, index);
    }
  }
  return length + 2;
}

/** Bytes of `text` from `start` on, escaped as `JSON.stringify` does (ECMA-262 QuoteJSONString). */
function escapedBytes(text: string, start: number): number {
  const length = text.length;
  let bytes = 0;
  for (let index = start; index < length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) {
      if (unit >= 0x20) bytes += unit === 0x22 || unit === 0x5c ? 2 : 1;
      // \b \t \n \f \r have short escapes; other controls are \u00XX.
      else bytes += unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d ? 2 : 6;
    } else if (unit < 0x800) bytes += 2;
    else if (unit < 0xd800 || unit >= 0xe000) bytes += 3;
    else if (unit < 0xdc00 && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 6; // a lone surrogate is escaped as \udXXX (well-formed JSON.stringify, ES2019)
  }
  return bytes;
}

/** Length of `String(value)`, which is what `JSON.stringify` writes for a finite number (`-0` is `0`). */
export function numberBytes(value: number): number {
  // Small integers (sizes, steps, indexes) are most numbers of a document: count digits without a string.
  if ((value | 0) === value) {
    const sign = value < 0 ? 1 : 0;
    const magnitude = sign === 1 ? -value : value;
    if (magnitude < 10) return sign + 1;
    if (magnitude < 100) return sign + 2;
    if (magnitude < 1_000) return sign + 3;
    if (magnitude < 10_000) return sign + 4;
    if (magnitude < 100_000) return sign + 5;
    if (magnitude < 1_000_000) return sign + 6;
    if (magnitude < 10_000_000) return sign + 7;
    if (magnitude < 100_000_000) return sign + 8;
    if (magnitude < 1_000_000_000) return sign + 9;
    return sign + 10;
  }
  return String(value).length;
}
