/**
 * The rule corpus of `parseDocument` (seed 002 §2–§6, §9, §11, §13), shared by the `src/dsl/document.*-rules.test.ts`
 * files: the valid base document and its builders, the registry of rows, and the runner. Each test file registers
 * one row per rule in its own `ruleCorpus()` and runs them with `describeRuleCorpus`. Every invalid row is a
 * small mutation of a valid base document and asserts the issue's `code` and exact `path` (PATHS.md), not just
 * that parsing threw. Valid rows pin the edges: exact limits are accepted, one past is rejected.
 *
 * Where the seed and PATHS.md leave the code open between two readings (for example an empty list that is
 * "1–N items": too few is neither clearly `too_many` nor `invalid_value`), a row lists the alternatives it
 * accepts; the path is still exact.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../src/dsl/document.js';
import { UISchemaError } from '../src/errors/errors.js';
import type { UIIssueCode } from '../src/errors/issues.js';
import { clone, codesAndPaths, expectDeepFrozen } from './utils.js';

// biome-ignore lint/suspicious/noExplicitAny: the rows build and mutate arbitrary (often invalid) JSON on purpose.
export type J = any;

interface Expected {
  readonly code: UIIssueCode;
  /** Exact path; a RegExp only where PATHS.md names a region rather than a value. */
  readonly path: string | RegExp;
}

interface RejectRow {
  readonly rule: string;
  readonly build: () => unknown;
  /** The issues must contain one of these (alternatives, see the file comment). */
  readonly expected: readonly Expected[];
}

interface AcceptRow {
  readonly rule: string;
  readonly build: () => unknown;
}

/** One test file's rows: `reject` and `accept` register them, `describeRuleCorpus` runs them. */
export interface RuleCorpus {
  readonly REJECT: RejectRow[];
  readonly ACCEPT: AcceptRow[];
  readonly reject: (rule: string, build: () => unknown, ...expected: Expected[]) => void;
  readonly accept: (rule: string, build: () => unknown) => void;
}

/** A fresh, empty corpus for one test file. */
export function ruleCorpus(): RuleCorpus {
  const REJECT: RejectRow[] = [];
  const ACCEPT: AcceptRow[] = [];

  function reject(rule: string, build: () => unknown, ...expected: Expected[]): void {
    REJECT.push({ rule, build, expected });
  }
  function accept(rule: string, build: () => unknown): void {
    ACCEPT.push({ rule, build });
  }
  return { REJECT, ACCEPT, reject, accept };
}
export const issue = (code: UIIssueCode, path: string | RegExp): Expected => ({ code, path });

/** A marker that must never come back in a message: injected unknown keys and rejected values use it. */
export const INJECTED = 'zzInjected';
export const INJECTED_KEY = `${INJECTED}Key`;

// ---------------------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------------------

export const repeat = (length: number, unit = 'a'): string => unit.repeat(length);
/** `root.children[i].children[j]…` */
export const C = (...indexes: number[]): string =>
  `root${indexes.map((index) => `.children[${index}]`).join('')}`;

/** Defines an own, enumerable property even for `__proto__`, as `JSON.parse` would. */
export function setOwn(target: J, key: string, value: unknown): J {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}
export function omit(target: J, key: string): J {
  delete target[key];
  return target;
}
export function mutate(value: J, change: (value: J) => void): J {
  change(value);
  return value;
}

export const st = (name: string) => ({ state: name });
export const dv = (name: string) => ({ derived: name });
export const op = (name: string, ...args: unknown[]) => ({ op: name, args });
export const expr = (expression: unknown) => ({ expr: expression });

export const BASE_STATE = {
  n: { type: 'number', initial: 10, min: 0, max: 100, step: 1 },
  free: { type: 'number', initial: 2.5 },
  s: { type: 'string', initial: 'hello', maxLength: 32 },
  plan: { type: 'string', initial: 'basic', maxLength: 8 },
  b: { type: 'boolean', initial: false },
};
const BASE_DERIVED = { double: op('mul', st('n'), 2) };
export const BASE_ACTIONS = {
  read_info: {
    kind: 'tool',
    capabilityId: 'read_file',
    arguments: { file_path: expr(st('s')), limit: 20 },
    resultMap: { n: 'totalLines' },
  },
  ask: { kind: 'agent', prompt: expr(op('concat', 'Explain ', st('s'))) },
};

export function node(type: string, id: string, props: J = {}, children?: J[]): J {
  return children === undefined ? { id, type, props } : { id, type, props, children };
}
export const text = (id: string, value: unknown = 'hello') => node('Text', id, { text: value });
export const card = (id: string, children: J[] = [], props: J = {}) => node('Card', id, props, children);
export const column = (id: string, children: J[] = []) => node('Column', id, {}, children);
export const form = (id: string, children: J[] = [], action: J = { type: 'reset' }) =>
  node('Form', id, { submitLabel: 'Send', action }, children);
export const button = (id: string, action: J) => node('Button', id, { label: 'Go', action });
export const setAction = (key: string, value: unknown) => ({ type: 'set', key, value });
export const invoke = (actionId: string) => ({ type: 'invoke', actionId });
export const select = (id: string, bind: string, values: string[]) =>
  node('Select', id, {
    label: 'Pick',
    bind,
    options: values.map((value) => ({ label: `Option ${value}`, value })),
  });
export const PLAN_OPTIONS = ['basic', 'pro', 'team'];

interface DocOptions {
  readonly version?: '1.0' | '1.1';
  readonly mode?: string;
  readonly state?: J;
  readonly derived?: J;
  readonly actions?: J;
  readonly root?: J;
}

/** The valid base: an interactive 1.0 document whose root Card holds `nodes`. */
export function doc(nodes: J[] = [], options: DocOptions = {}): J {
  const version = options.version ?? '1.0';
  const document: J = {
    version,
    id: 'rules-base',
    mode: options.mode ?? 'interactive_ui',
    title: 'Rule corpus',
    state: clone(options.state ?? BASE_STATE),
    derived: clone(options.derived ?? BASE_DERIVED),
    root: options.root ?? card('root-card', nodes),
  };
  if (version === '1.1') document.actions = clone(options.actions ?? BASE_ACTIONS);
  return document;
}
export const doc11 = (nodes: J[] = [], options: DocOptions = {}): J =>
  doc(nodes, { ...options, version: '1.1' });
export const withState = (state: J, nodes: J[] = []): J =>
  doc(nodes, { state: { ...clone(BASE_STATE), ...state } });
export const withDerived = (derived: J, nodes: J[] = []): J => doc(nodes, { derived });
/** A single node at `root.children[0]`, mutated. */
export const one = (component: J, change: (props: J, node: J) => void = () => {}): J =>
  doc([mutate(component, (n) => change(n.props, n))]);

/** A valid example of each of the 21 components (seed 002 §5), valid in the base state. */
export const VALID_NODES: Record<string, () => J> = {
  Text: () => text('t', 'hello'),
  Heading: () => node('Heading', 'h', { text: expr(op('concat', 'Total: ', dv('double'))), level: 1 }),
  Markdown: () => node('Markdown', 'md', { text: '# Title\n\n**bold** and `code`' }),
  Row: () => node('Row', 'row', { gap: 'sm' }, []),
  Column: () => node('Column', 'col', { gap: 'lg' }, []),
  Grid: () => node('Grid', 'grid', { gap: 'md', columns: 3 }, []),
  Card: () => node('Card', 'card', { title: 'Card', gap: 'md' }, []),
  Badge: () => node('Badge', 'badge', { text: 'new', tone: 'success' }),
  Table: () =>
    node('Table', 'table', {
      columns: [
        { key: 'a', label: 'A' },
        { key: 'b', label: 'B' },
      ],
      rows: [
        { a: 1, b: 'x' },
        { a: null, b: true },
      ],
    }),
  Progress: () => node('Progress', 'progress', { value: expr(st('n')), max: 100, label: 'Progress' }),
  Chart: () =>
    node('Chart', 'chart', {
      kind: 'line',
      data: [
        { id: 'p1', label: 'P1', value: -3 },
        { id: 'p2', label: 'P2', value: expr(st('n')) },
      ],
      label: 'Chart',
    }),
  Input: () => node('Input', 'input', { label: 'Name', bind: 's', placeholder: 'Type here' }),
  NumberInput: () => node('NumberInput', 'number', { label: 'N', bind: 'n', min: 0, max: 100, step: 1 }),
  Select: () => select('select', 'plan', PLAN_OPTIONS),
  Button: () => node('Button', 'button', { label: 'Go', action: { type: 'reset' }, variant: 'primary' }),
  Slider: () => node('Slider', 'slider', { label: 'N', bind: 'n' }),
  Checkbox: () => node('Checkbox', 'checkbox', { label: 'B', bind: 'b' }),
  Form: () => node('Form', 'form', { submitLabel: 'Send', action: setAction('b', true), gap: 'sm' }, []),
  Loading: () => node('Loading', 'loading', { label: 'Loading' }),
  Error: () => node('Error', 'error', { message: 'Something failed' }),
  Result: () =>
    node('Result', 'result', {
      label: 'Total',
      value: expr(dv('double')),
      format: { style: 'decimal', digits: 2 },
    }),
};

/** A Value that is an object without `expr` (e.g. a bare `{ state }`): the seed rejects it; the code is open. */
export const bareObjectValue = (path: string): Expected[] => [
  issue('invalid_type', path),
  issue('unknown_property', path),
  issue('missing_property', `${path}.expr`),
];

/** `not(not(…(true)))`: an expression of the given depth (a literal alone has depth 1). */
export function notChain(depth: number): J {
  let current: J = true;
  for (let level = 1; level < depth; level += 1) current = op('not', current);
  return current;
}

export function numberStates(count: number): J {
  const state: J = {};
  for (let index = 0; index < count; index += 1) state[`f${index}`] = { type: 'number', initial: 0 };
  return state;
}

// ---------------------------------------------------------------------------------------------------------
// Running the corpus
// ---------------------------------------------------------------------------------------------------------

function describeIssues(issues: readonly { code: string; path: string }[]): string {
  return JSON.stringify(codesAndPaths(issues));
}

/** Parses `input`, expecting a UISchemaError, and checks the diagnostics' general guarantees (§8). */
export function rejection(input: unknown): UISchemaError {
  expect(() => parseDocument(input)).toThrow(UISchemaError);
  let caught: unknown;
  try {
    parseDocument(input);
  } catch (error) {
    caught = error;
  }
  const error = caught as UISchemaError;
  expect(error.issues.length).toBeGreaterThan(0);
  expect(error.issues.length).toBeLessThanOrEqual(20);
  for (const { path, message } of error.issues) {
    expect(path.length).toBeLessThanOrEqual(512);
    expect(message.length).toBeLessThanOrEqual(300);
    expect(message).not.toContain(INJECTED);
    expect(path).not.toContain(INJECTED);
  }
  expect(error.message).not.toContain(INJECTED);
  return error;
}

function matches(expected: Expected, actual: { code: string; path: string }): boolean {
  if (expected.code !== actual.code) return false;
  return typeof expected.path === 'string' ? expected.path === actual.path : expected.path.test(actual.path);
}

/**
 * Runs one test file's corpus: a test per rejected and per accepted row (each list first checks that its row
 * names are unique), and the check that every valid row parses to a deep-frozen, idempotent document.
 */
export function describeRuleCorpus({ REJECT, ACCEPT }: RuleCorpus): void {
  describe('parseDocument rule corpus: rejected documents', () => {
    it('has a unique name per row', () => {
      const names = REJECT.map((row) => row.rule);
      expect(new Set(names).size).toBe(names.length);
    });
    for (const row of REJECT) {
      it(row.rule, () => {
        const error = rejection(row.build());
        const found = error.issues.some((actual) =>
          row.expected.some((expected) => matches(expected, actual)),
        );
        expect(
          found,
          `expected one of ${JSON.stringify(row.expected.map((e) => ({ code: e.code, path: String(e.path) })))}, got ${describeIssues(error.issues)}`,
        ).toBe(true);
      });
    }
  });

  describe('parseDocument rule corpus: accepted documents', () => {
    it('has a unique name per row', () => {
      const names = ACCEPT.map((row) => row.rule);
      expect(new Set(names).size).toBe(names.length);
    });
    for (const row of ACCEPT) {
      it(row.rule, () => {
        const input = row.build();
        let issues = '';
        try {
          parseDocument(input);
        } catch (error) {
          issues = error instanceof UISchemaError ? describeIssues(error.issues) : String(error);
        }
        expect(issues, 'the document should be accepted').toBe('');
      });
    }
  });

  describe('fixtures', () => {
    it('every valid row parses to a deep-frozen, idempotent document', () => {
      for (const row of ACCEPT) {
        const parsed = parseDocument(row.build());
        expectDeepFrozen(parsed);
        expect(parseDocument(parsed), row.rule).toEqual(parsed);
      }
    });
  });
}
