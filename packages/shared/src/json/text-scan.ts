/**
 * A budget check of JSON *text*, before `JSON.parse` builds anything (seed 002 §13 "协议预检"): one pass over the
 * characters that counts nesting and values exactly as `measureSafeJSON` counts them in the decoded value, and
 * stops as soon as either budget is exceeded. `JSON.parse` of a megabyte of `[[[[…` takes hundreds of
 * milliseconds and builds half a million arrays; this pass gives up after `maxDepth + 1` characters.
 *
 * On the way it keeps the literal text of a few members (`id`, `payload.call_id` …), so a receiver can still
 * answer a message it will not parse by the ids it names. The scan does not validate JSON: on text that is not
 * JSON it stops where the text stops making sense, and `JSON.parse` gives the verdict.
 */

export interface JSONTextBudget {
  /** Deepest nesting of objects and arrays (`{}` is depth 1). */
  readonly maxDepth: number;
  /** Most values: every object, array and primitive counts one; keys do not. */
  readonly maxValues: number;
}

export interface JSONTextScan {
  /** `too_deep` or `too_many` when a budget was exceeded (the scan stopped there), else undefined. */
  readonly exceeded?: 'too_deep' | 'too_many';
  /**
   * The literal JSON text of each member of `capture` met before the scan stopped (`"msg_1"`, `1`), by its
   * path joined with `.`. A literal over `maxCapturedLength` characters, or an object or array, is left out.
   */
  readonly captured: ReadonlyMap<string, string>;
}

export interface JSONTextScanOptions {
  /** Paths of members to keep, each one or two keys deep (`['id']`, `['payload', 'call_id']`). */
  readonly capture?: readonly (readonly [string] | readonly [string, string])[];
  /** Scan only this many characters (the rest is not read): for text too large to read whole. */
  readonly maxChars?: number;
  /** Longest literal kept (default 1,024 characters). */
  readonly maxCapturedLength?: number;
}

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COLON = 0x3a; // :
const COMMA = 0x2c; // ,

/** Whitespace, `:` and `,` are structure; everything else that is not a bracket or a quote starts a literal. */
function isStructure(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === COLON || code === COMMA;
}

/** The index of the quote that ends the string whose opening quote is at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return -1;
    let backslashes = 0;
    for (let back = at - 1; text.charCodeAt(back) === BACKSLASH; back--) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** The key whose quotes are at `open` and `close`; undefined for one that is long or not valid JSON. */
function keyText(text: string, open: number, close: number): string | undefined {
  // Keys are short in the messages this serves; a long one can be no member to keep.
  if (close - open > 256) return undefined;
  const raw = text.slice(open + 1, close);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(open, close + 1)) as string;
  } catch {
    return undefined;
  }
}

/** Scans `text` against `budget`; see the module comment. Linear in the characters read, never recursive. */
export function scanJSONText(
  text: string,
  budget: JSONTextBudget,
  options: JSONTextScanOptions = {},
): JSONTextScan {
  const end = Math.min(text.length, options.maxChars ?? text.length);
  const maxCaptured = options.maxCapturedLength ?? 1_024;
  const wanted = new Set((options.capture ?? []).map((path) => path.join('.')));
  const parents = new Set((options.capture ?? []).filter((path) => path.length === 2).map((path) => path[0]));
  const captured = new Map<string, string>();
  // One entry per open container: whether it is an object, and the key of the member being read in it.
  const isObject: boolean[] = [];
  const keyOf: (string | undefined)[] = [];
  // Inside an object: true while the next string is a key.
  let expectKey = false;
  let values = 0;
  let at = 0;

  /** The path of the member a value at the current position belongs to, if it is one to keep. */
  const memberPath = (): string | undefined => {
    const depth = isObject.length;
    if (depth === 1 && isObject[0]) return keyOf[0];
    if (depth === 2 && isObject[0] && isObject[1] && parents.has(keyOf[0] ?? ''))
      return `${keyOf[0]}.${keyOf[1]}`;
    return undefined;
  };
  const keep = (from: number, to: number) => {
    if (wanted.size === 0 || to - from > maxCaptured) return;
    const path = memberPath();
    if (path !== undefined && wanted.has(path)) captured.set(path, text.slice(from, to));
  };
  const result = (exceeded?: 'too_deep' | 'too_many'): JSONTextScan =>
    exceeded === undefined ? { captured } : { exceeded, captured };

  while (at < end) {
    const code = text.charCodeAt(at);
    if (isStructure(code)) {
      if (code === COMMA && isObject.length > 0 && isObject[isObject.length - 1]) expectKey = true;
      at++;
      continue;
    }
    if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      isObject.pop();
      keyOf.pop();
      expectKey = false;
      at++;
      continue;
    }
    if (code === QUOTE) {
      const close = stringEnd(text, at);
      if (close === -1 || close >= end) return result();
      if (expectKey) {
        const depth = isObject.length;
        keyOf[depth - 1] =
          wanted.size > 0 && (depth === 1 || (depth === 2 && parents.has(keyOf[0] ?? '')))
            ? keyText(text, at, close)
            : undefined;
        expectKey = false;
      } else {
        if (++values > budget.maxValues) return result('too_many');
        keep(at, close + 1);
      }
      at = close + 1;
      continue;
    }
    if (++values > budget.maxValues) return result('too_many');
    if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (isObject.length >= budget.maxDepth) return result('too_deep');
      isObject.push(code === OPEN_OBJECT);
      keyOf.push(undefined);
      expectKey = code === OPEN_OBJECT;
      at++;
      continue;
    }
    // A number, true, false or null (or text that is not JSON): up to the next structural character.
    const start = at;
    while (at < end) {
      const next = text.charCodeAt(at);
      if (isStructure(next) || next === CLOSE_OBJECT || next === CLOSE_ARRAY) break;
      if (next === OPEN_OBJECT || next === OPEN_ARRAY || next === QUOTE) return result();
      at++;
    }
    keep(start, at);
  }
  return result();
}
