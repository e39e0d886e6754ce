import { bench, describe } from 'vitest';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { assertSafeJSON, jsonByteLength } from './safe-json.js';

/**
 * A document-like value just under the 256 KiB document budget (seed 002 §9): nested layout nodes, tables
 * of mixed cells, expressions, state declarations, and some non-ASCII and escaped text. Deterministic.
 */
function makeDocument(maxBytes: number): unknown {
  let seed = 1;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const words = ['principal', 'rate', 'years', 'Monthly payment', 'Zinsen', '利率', 'Überblick', 'say "hi"'];
  const word = (): string => words[Math.floor(random() * words.length)] as string;
  let count = 0;
  const node = (depth: number): unknown => {
    count++;
    const id = `node_${count}`;
    const roll = random();
    if (depth > 3 || roll < 0.3) return { type: 'Text', id, props: { text: `${word()} ${word()} ${count}` } };
    if (roll < 0.45) {
      const rows: unknown[] = [];
      for (let row = 0; row < 12; row++) {
        rows.push([`${word()} ${row}`, Math.round(random() * 1e6) / 100, row, random() < 0.5]);
      }
      const columns = [
        { key: 'name', label: 'Name' },
        { key: 'amount', label: 'Amount', format: { style: 'currency', digits: 2 } },
        { key: 'index', label: 'Index' },
        { key: 'flag', label: 'Flag' },
      ];
      return { type: 'Table', id, props: { columns, rows } };
    }
    if (roll < 0.6) {
      const value = {
        expr: { op: 'mul', args: [{ state: 'rate' }, { literal: 1.5 }, { derived: 'total' }] },
      };
      return {
        type: 'Slider',
        id,
        props: { label: word(), bind: 'rate', min: 0, max: 100, step: 0.5, value },
      };
    }
    const children: unknown[] = [];
    const size = 2 + Math.floor(random() * 4);
    for (let child = 0; child < size; child++) children.push(node(depth + 1));
    return {
      type: 'Stack',
      id,
      props: { gap: 'md', direction: random() < 0.5 ? 'row' : 'column' },
      children,
    };
  };
  const state: Record<string, unknown> = {};
  for (let field = 0; field < 40; field++) {
    state[`field_${field}`] = { type: 'number', initial: field * 1.25, min: 0, max: 1000, step: 0.25 };
  }
  const children: unknown[] = [];
  const document = {
    version: '1.1',
    title: 'Benchmark',
    state,
    root: { type: 'Stack', id: 'root', children },
  };
  // Grow to just under the budget, counting each child's bytes (and its comma) once.
  let bytes = jsonByteLength(document);
  for (;;) {
    const child = node(1);
    const childBytes = jsonByteLength(child) + (children.length > 0 ? 1 : 0);
    if (bytes + childBytes > maxBytes) return document;
    children.push(child);
    bytes += childBytes;
  }
}

const document = makeDocument(UI_LIMITS.maxDocumentBytes);
const text = JSON.stringify(document);

// Long enough for both to reach optimized code; the first runs of the walk are not what a host pays.
const options = { warmupTime: 1_000, time: 3_000 };

describe(`a ${Math.round(text.length / 1024)} KiB document`, () => {
  bench(
    'assertSafeJSON(document)',
    () => {
      assertSafeJSON(document);
    },
    options,
  );
  bench(
    'JSON.parse(text)',
    () => {
      JSON.parse(text);
    },
    options,
  );
});
