/**
 * Property: any valid document built from every component type, in any order and nesting, renders with no
 * failed node and no unavailable value, and every control it renders has a label. And a document that grows
 * around a control keeps that control's local value.
 */
import { parseDocument, UISchemaError } from '@lineup/shared';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IntelligentUIView } from './document-view.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are built as plain JSON.
type J = any;

const STATE = {
  name: { type: 'string', initial: 'Ada', maxLength: 40 },
  count: { type: 'number', initial: 2, min: 0, max: 10, step: 1 },
  pick: { type: 'string', initial: 'a' },
  agree: { type: 'boolean', initial: true },
};

/** One leaf of each non-layout component type, valid against STATE. */
const LEAVES: ((id: string) => J)[] = [
  (id) => ({
    id,
    type: 'Text',
    props: { text: { expr: { op: 'concat', args: ['Hi ', { state: 'name' }] } } },
  }),
  (id) => ({ id, type: 'Heading', props: { text: 'Heading', level: 2 } }),
  (id) => ({ id, type: 'Markdown', props: { text: '**bold** and `code`' } }),
  (id) => ({ id, type: 'Badge', props: { text: { expr: { state: 'pick' } }, tone: 'warning' } }),
  (id) => ({
    id,
    type: 'Table',
    props: { columns: [{ key: 'k', label: 'K' }], rows: [{ k: 1 }, { k: 'two' }] },
  }),
  (id) => ({ id, type: 'Progress', props: { value: { expr: { state: 'count' } }, max: 10 } }),
  (id) => ({
    id,
    type: 'Chart',
    props: { kind: 'bar', data: [{ id: 'p', label: 'P', value: { expr: { state: 'count' } } }] },
  }),
  (id) => ({ id, type: 'Input', props: { label: `Input ${id}`, bind: 'name' } }),
  (id) => ({ id, type: 'NumberInput', props: { label: `Number ${id}`, bind: 'count' } }),
  (id) => ({
    id,
    type: 'Select',
    props: {
      label: `Select ${id}`,
      bind: 'pick',
      options: [
        { label: 'A', value: 'a' },
        { label: 'B', value: 'b' },
      ],
    },
  }),
  (id) => ({ id, type: 'Slider', props: { label: `Slider ${id}`, bind: 'count' } }),
  (id) => ({ id, type: 'Checkbox', props: { label: `Check ${id}`, bind: 'agree' } }),
  (id) => ({ id, type: 'Button', props: { label: `Button ${id}`, action: { type: 'reset' } } }),
  (id) => ({ id, type: 'Loading', props: {} }),
  (id) => ({ id, type: 'Error', props: { message: 'Bad' } }),
  (id) => ({
    id,
    type: 'Result',
    props: { value: { expr: { state: 'count' } }, format: { style: 'decimal', digits: 1 } },
  }),
];
const LAYOUTS = ['Row', 'Column', 'Grid', 'Card', 'Form'] as const;

type Shape = { leaf: number } | { layout: number; children: Shape[] };
const shape: fc.Arbitrary<Shape> = fc.letrec<{ node: Shape }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ leaf: fc.nat(LEAVES.length - 1) }),
    fc.record({ layout: fc.nat(LAYOUTS.length - 1), children: fc.array(tie('node'), { maxLength: 4 }) }),
  ),
})).node;

function build(shapes: Shape[]): { document: J; count: number } {
  let next = 0;
  const toNode = (item: Shape, insideForm: boolean): J => {
    const id = `n${next++}`;
    if ('leaf' in item) return LEAVES[item.leaf]!(id);
    // A Form cannot hold another Form: inside one, a Form becomes a Column.
    const type = LAYOUTS[item.layout] === 'Form' && insideForm ? 'Column' : LAYOUTS[item.layout]!;
    const props = type === 'Form' ? { submitLabel: `Submit ${id}`, action: { type: 'reset' } } : {};
    return {
      id,
      type,
      props,
      children: item.children.map((child) => toNode(child, insideForm || type === 'Form')),
    };
  };
  const root = { id: 'root', type: 'Column', props: {}, children: shapes.map((item) => toNode(item, false)) };
  const document = {
    version: '1.0',
    id: 'generated',
    mode: 'interactive_ui',
    title: 'Generated',
    state: STATE,
    derived: {},
    root,
  };
  return { document, count: next + 1 };
}

describe('rendering generated documents', () => {
  it('renders every valid document with no failed node and every control labelled', () => {
    let rendered = 0;
    fc.assert(
      fc.property(fc.array(shape, { minLength: 1, maxLength: 6 }), (shapes) => {
        const { document } = build(shapes);
        try {
          parseDocument(document);
        } catch (error) {
          // Limits (depth, component count) can refuse a generated document; that is parseDocument's job.
          expect(error).toBeInstanceOf(UISchemaError);
          return;
        }
        const { container } = render(<IntelligentUIView document={document} />);
        try {
          expect(container.querySelector('.lu-node-error, .lu-value-error, .lu-invalid')).toBeNull();
          for (const control of container.querySelectorAll<HTMLInputElement | HTMLSelectElement>(
            'input, select',
          ))
            expect(control.labels?.length ?? 0).toBeGreaterThan(0);
          rendered++;
        } finally {
          cleanup();
        }
      }),
      { numRuns: 60 },
    );
    expect(rendered).toBeGreaterThan(30);
  });

  it('keeps a typed value when the document around the control changes', () => {
    const { document } = build([{ leaf: 7 }]);
    const { rerender } = render(<IntelligentUIView document={document} />);
    fireEvent.change(screen.getByLabelText('Input n0'), { target: { value: 'Grace' } });
    const grown = structuredClone(document);
    grown.root.children.push(LEAVES[0]!('extra'));
    rerender(<IntelligentUIView document={grown} />);
    expect((screen.getByLabelText('Input n0') as HTMLInputElement).value).toBe('Grace');
    expect(screen.getByText('Hi Grace')).toBeTruthy();
  });
});
