/**
 * The last of the proofs that an Agent Tool descriptor or a MiniApp manifest carries no executable content
 * (seed 003 §4.1 "构建生成 Manifest 的不可执行 Tool 描述 … 不包含 handler、私有函数名或其他可执行内容").
 * The others are structural: safe JSON has no functions (parseShape), every object is closed (no `handler`,
 * `js`, `script` or `eval` field), and carried JSON Schemas use a closed keyword list
 * (messages/json-schema-shape.ts). What remains is a string a consumer might navigate to or load: any string
 * that is a script URL — `javascript:`, `vbscript:`, or a `data:` URL of markup or script — is rejected,
 * wherever it sits (a description, a schema `default`, an `enum` value).
 */
import type { z } from 'zod';
import type { UIIssueCode } from '../../errors/issues.js';
import { UI_SCHEMA_LIMITS } from '../../limits/ui-limits.js';

/**
 * What a browser would treat as a script URL after its URL parser strips leading C0 controls and spaces and
 * every tab and newline (WHATWG URL): `javascript:`/`vbscript:`, or `data:` with an HTML, XML, SVG or
 * JavaScript media type.
 */
const SCRIPT_URL =
  /^(?:javascript|vbscript|livescript):|^data:(?:text\/html|application\/xhtml|image\/svg|text\/xml|application\/xml|text\/javascript|application\/javascript|application\/ecmascript|text\/ecmascript)/;
const STRIPPED_ANYWHERE = /[\t\n\r]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: a URL parser strips these, so this must too.
const STRIPPED_LEADING = /^[\x00-\x20]+/;
/** Cheap pre-filter: only strings with a colon can be URLs with a scheme. */
const COLON = ':';

/** True when `text` would be a script URL if a consumer used it as one. */
export function isScriptURL(text: string): boolean {
  if (!text.includes(COLON)) return false;
  const normalized = text.replace(STRIPPED_ANYWHERE, '').replace(STRIPPED_LEADING, '').toLowerCase();
  return SCRIPT_URL.test(normalized);
}

type Path = (string | number)[];
const { isArray } = Array;
const { keys: objectKeys } = Object;

/** One value met by the walk; the parent chain gives its path only when an issue needs it. */
interface Visit {
  readonly value: unknown;
  readonly key: string | number | undefined;
  readonly parent: Visit | undefined;
}

function pathOf(visit: Visit): Path {
  const path: Path = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * Adds an `invalid_value` issue for every script URL string inside `value` (a parsed, safe JSON value),
 * keys included, up to the reporting limit. Iterative: depth costs no stack.
 */
export function checkNoScriptURLs(value: unknown, context: z.RefinementCtx): void {
  let reported = 0;
  const report = (path: Path) => {
    reported++;
    context.addIssue({
      code: 'custom',
      path,
      message: 'Script URLs (javascript:, vbscript:, data: markup or script) are not allowed here.',
      params: { code: 'invalid_value' satisfies UIIssueCode },
    });
  };
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    if (reported >= UI_SCHEMA_LIMITS.maxIssues) return;
    const item = visit.value;
    if (typeof item === 'string') {
      if (isScriptURL(item)) report(pathOf(visit));
    } else if (isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--)
        pending.push({ value: item[index], key: index, parent: visit });
    } else if (typeof item === 'object' && item !== null) {
      const record = item as Record<string, unknown>;
      const keys = objectKeys(record);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        // A key is reported at its object, so the path never repeats it.
        if (isScriptURL(key)) report(pathOf(visit));
        pending.push({ value: record[key], key, parent: visit });
      }
    }
  }
}
