/**
 * What a value change re-renders: only the nodes whose values changed. Markdown, Texts of other fields and
 * controls of other fields do not render again when a Slider moves. The views are wrapped in counters (the
 * registry in node-view.tsx imports them from display.js and inputs.js). The package's tests share modules
 * (`isolate: false`), so the view is imported afresh after the mocks are in place.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const renders = vi.hoisted(() => new Map<string, number>());

/** Wraps each named view so that every render of it counts, by the node's id. */
function counted<T extends Record<string, unknown>>(module: T, names: readonly string[]): T {
  const wrapped: Record<string, unknown> = { ...module };
  for (const name of names) {
    // The views are function components: calling one inside the wrapper runs its hooks as the wrapper's.
    const View = module[name] as (props: { node: { id: string } }) => ReactNode;
    wrapped[name] = (props: { node: { id: string } }) => {
      renders.set(props.node.id, (renders.get(props.node.id) ?? 0) + 1);
      return View(props);
    };
  }
  return wrapped as T;
}

vi.mock('./components/display.js', async (importOriginal) =>
  counted(await importOriginal<Record<string, unknown>>(), ['TextView', 'MarkdownView', 'ResultView']),
);
vi.mock('./components/inputs.js', async (importOriginal) =>
  counted(await importOriginal<Record<string, unknown>>(), ['SliderView']),
);

const DOCUMENT = {
  version: '1.0',
  id: 'rerender',
  mode: 'interactive_ui',
  title: 'Re-renders',
  state: {
    a: { type: 'number', initial: 1, min: 0, max: 10, step: 1 },
    b: { type: 'number', initial: 5, min: 0, max: 10, step: 1 },
  },
  derived: { twiceA: { op: 'mul', args: [{ state: 'a' }, 2] } },
  root: {
    id: 'root',
    type: 'Column',
    props: {},
    children: [
      { id: 'slider-a', type: 'Slider', props: { label: 'A', bind: 'a' } },
      { id: 'slider-b', type: 'Slider', props: { label: 'B', bind: 'b' } },
      {
        id: 'text-a',
        type: 'Text',
        props: { text: { expr: { op: 'concat', args: ['A is ', { state: 'a' }] } } },
      },
      {
        id: 'text-b',
        type: 'Text',
        props: { text: { expr: { op: 'concat', args: ['B is ', { state: 'b' }] } } },
      },
      { id: 'result-a', type: 'Result', props: { label: 'Twice A', value: { expr: { derived: 'twiceA' } } } },
      { id: 'result-b', type: 'Result', props: { label: 'B', value: { expr: { state: 'b' } } } },
      { id: 'markdown-1', type: 'Markdown', props: { text: '## Notes\n\nSome **bold** text.' } },
      {
        id: 'card',
        type: 'Card',
        props: { title: 'More' },
        children: [{ id: 'markdown-2', type: 'Markdown', props: { text: '- one\n- two' } }],
      },
    ],
  },
};

let IntelligentUIView: typeof import('./document-view.js').IntelligentUIView;

describe('re-renders on a value change', () => {
  beforeAll(async () => {
    vi.resetModules();
    ({ IntelligentUIView } = await import('./document-view.js'));
  });
  beforeEach(() => renders.clear());

  it('renders again only the nodes whose values changed: no Markdown, no node of another field', () => {
    render(<IntelligentUIView document={DOCUMENT} />);
    expect(screen.getByText('A is 1')).toBeTruthy();
    expect(renders.get('markdown-1')).toBe(1);
    renders.clear();

    fireEvent.change(screen.getByRole('slider', { name: 'A' }), { target: { value: '2' } });

    expect(screen.getByText('A is 2')).toBeTruthy();
    expect(screen.getByText('4')).toBeTruthy();
    // What depends on `a` rendered again, once each.
    expect(renders.get('slider-a')).toBe(1);
    expect(renders.get('text-a')).toBe(1);
    expect(renders.get('result-a')).toBe(1);
    // Nothing else did.
    expect([...renders.keys()].sort()).toEqual(['result-a', 'slider-a', 'text-a']);
  });

  it("shows a Markdown block's new text when the document changes", () => {
    const { rerender } = render(<IntelligentUIView document={DOCUMENT} />);
    renders.clear();
    const next = structuredClone(DOCUMENT);
    next.root.children[6] = {
      id: 'markdown-1',
      type: 'Markdown',
      props: { text: '## Notes\n\nNew *text*.' },
    };
    rerender(<IntelligentUIView document={next} />);
    expect(screen.getByText('text').tagName).toBe('EM');
    expect(renders.get('markdown-1')).toBeGreaterThan(0);
  });
});
