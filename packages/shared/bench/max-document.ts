/**
 * Builds a valid document at the edge of the DSL's budgets for benchmarks and budget tests: 200 components,
 * 64 state fields, 64 derived fields, most of the 2,048 expression nodes, and Table rows filling the document
 * up to just under 262,144 bytes.
 */
import { UI_LIMITS } from '../src/limits/ui-limits.js';

type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };
type Node = { [key: string]: JSONValue };

const NUMBER_FIELDS = 40;
const STRING_FIELDS = 12;
const BOOLEAN_FIELDS = 12;

function utf8Length(text: string): number {
  // Surrogate pairs count 2 + 2 (4 bytes per pair); the benchmark text has none anyway.
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdfff ? 2 : 3;
  }
  return bytes;
}

export function documentBytes(document: unknown): number {
  return utf8Length(JSON.stringify(document));
}

/** A document with 64 derived fields that chain through each other; `derivedNodes` sizes each expression. */
export function buildDerivedDocument(derivedNodes = 12): { [key: string]: JSONValue } {
  const state: { [key: string]: JSONValue } = {};
  for (let i = 0; i < NUMBER_FIELDS; i++)
    state[`n${i}`] = { type: 'number', initial: i + 1, min: 0, max: 1_000_000, step: 1 };
  for (let i = 0; i < STRING_FIELDS; i++)
    state[`s${i}`] = { type: 'string', initial: `text ${i}`, maxLength: 64 };
  for (let i = 0; i < BOOLEAN_FIELDS; i++) state[`b${i}`] = { type: 'boolean', initial: i % 2 === 0 };
  const derived: { [key: string]: JSONValue } = {};
  for (let i = 0; i < UI_LIMITS.maxDerivedFields; i++) {
    // add(previous derived or a state field, n_i × n_{i+1}, round(n_{i+2} / 3, 2), …) up to derivedNodes nodes.
    const args: JSONValue[] = [i === 0 ? { state: 'n0' } : { derived: `d${i - 1}` }];
    let nodes = 2;
    let k = 0;
    while (nodes + 4 <= derivedNodes && args.length < 16) {
      args.push({
        op: 'round',
        args: [{ op: 'div', args: [{ state: `n${(i + k) % NUMBER_FIELDS}` }, 7] }, 2],
      });
      nodes += 5;
      k++;
    }
    if (args.length < 2) args.push(1);
    derived[`d${i}`] = { op: 'add', args };
  }
  return {
    version: '1.0',
    id: 'derived-bench',
    mode: 'interactive_ui',
    title: 'Derived benchmark',
    state,
    derived,
    root: {
      id: 'root',
      type: 'Column',
      props: {},
      children: [
        { id: 'n0-input', type: 'NumberInput', props: { label: 'n0', bind: 'n0' } },
        { id: 'last', type: 'Result', props: { label: 'Last', value: { expr: { derived: 'd63' } } } },
      ],
    },
  };
}

/**
 * The maximum-size benchmark document: 200 components, close to 262,144 bytes. A smaller `maxBytes` (at
 * least ~50 KB, what the components take without Table rows) gives fewer rows and a document just under it.
 */
export function buildMaxDocument(maxBytes: number = UI_LIMITS.maxDocumentBytes): {
  [key: string]: JSONValue;
} {
  const document = buildDerivedDocument(16);
  const cards: Node[] = [];
  let components = 1; // the root Column
  const tables: Node[] = [];
  for (let c = 0; components < UI_LIMITS.maxComponents; c++) {
    const children: JSONValue[] = [];
    const card: Node = {
      id: `card${c}`,
      type: 'Card',
      props: { title: `Section ${c}`, gap: 'md' },
      children,
    };
    components++;
    cards.push(card);
    const add = (node: Node) => {
      if (components < UI_LIMITS.maxComponents) {
        children.push(node);
        components++;
      }
    };
    const n = c % NUMBER_FIELDS;
    add({ id: `slider${c}`, type: 'Slider', props: { label: `Value ${n}`, bind: `n${n}` } });
    add({
      id: `text${c}`,
      type: 'Text',
      props: {
        text: {
          expr: {
            op: 'concat',
            args: ['Value ', { state: `n${n}` }, ' of ', { state: `s${c % STRING_FIELDS}` }],
          },
        },
      },
    });
    add({
      id: `result${c}`,
      type: 'Result',
      props: {
        label: `Derived ${c}`,
        value: { expr: { op: 'mul', args: [{ derived: `d${c % 64}` }, 1.5] } },
        format: { style: 'decimal', digits: 2 },
      },
    });
    add({
      id: `chart${c}`,
      type: 'Chart',
      props: {
        kind: c % 2 ? 'bar' : 'line',
        label: `Chart ${c}`,
        data: [0, 1, 2].map((p) => ({
          id: `p${p}`,
          label: `Point ${p}`,
          value: { expr: { state: `n${(n + p) % NUMBER_FIELDS}` } },
        })),
      },
    });
    add({
      id: `badge${c}`,
      type: 'Badge',
      props: {
        text: { expr: { op: 'if', args: [{ state: `b${c % BOOLEAN_FIELDS}` }, 'on', 'off'] } },
        tone: 'success',
      },
    });
    const table: Node = {
      id: `table${c}`,
      type: 'Table',
      props: {
        columns: ['name', 'price', 'rating', 'stock', 'note'].map((key) => ({
          key,
          label: key.toUpperCase(),
        })),
        rows: [],
      },
    };
    add(table);
    if (children.includes(table)) tables.push(table);
  }
  (document.root as Node).children = cards;
  // Fill the tables round-robin with rows until the next row would pass the byte budget.
  const budget = maxBytes - 64;
  let size = documentBytes(document);
  for (let r = 0; ; r++) {
    const table = tables[r % tables.length]!;
    const rows = (table.props as Node).rows as JSONValue[];
    const row = {
      name: `Item ${r} — 产品`,
      price: 1000 + r,
      rating: (r % 50) / 10,
      stock: r % 3 === 0,
      note: null,
    };
    const rowBytes = documentBytes(row) + (rows.length ? 1 : 0);
    if (size + rowBytes > budget || rows.length >= UI_LIMITS.maxTableRows) break;
    rows.push(row);
    size += rowBytes;
  }
  return document;
}
