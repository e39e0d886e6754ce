/**
 * The page side of the render benchmark (render-speed.bench.ts), bundled with the renderer's sources: it
 * delivers a document the way a host does (JSON text → parsed value → IntelligentUIView) and times it to the
 * DOM, against `JSON.parse` + `parseDocument` of the same text, and counts the components a keystroke renders.
 */
import * as renderer from '@lineup/renderer-react';
import '@lineup/renderer-react/styles.css';
import { parseDocument } from '@lineup/shared';
import { createRoot, type Root } from 'react-dom/client';
import { buildMarkdownMaxDocument, MARKDOWN_BLOCKS } from './max-markdown-document.ts';

export interface RenderTiming {
  /** Deliver → the document's title in the DOM, laid out (ms). */
  readonly title: number;
  /** Deliver → every component in the DOM (Markdown blocks may still be filling in), laid out (ms). */
  readonly firstDom: number;
  /** Deliver → every Markdown block rendered, laid out (ms). */
  readonly complete: number;
  /** The longest main-thread task between deliver and complete (ms; 0 when none passed 50 ms). */
  readonly longestTask: number;
  readonly bytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function documentText(variant: number): string {
  return JSON.stringify(buildMarkdownMaxDocument(variant));
}

/** Median of `runs` timings of parseDocument(JSON.parse(text)). */
function parseTime(text: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    parseDocument(JSON.parse(text));
    times.push(performance.now() - start);
  }
  return median(times);
}

let mounted: { root: Root; container: HTMLElement } | null = null;

/** Delivers `text` and leaves it mounted (for keystrokes), once every Markdown block is filled in. */
async function mount(text: string): Promise<RenderTiming> {
  unmount();
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  mounted = { root, container };
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  let title = NaN;
  let firstDom = NaN;
  let complete = NaN;
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    setTimeout(() => {
      const invalid = container.querySelector('.lu-invalid')?.textContent;
      const count = container.querySelectorAll('.lu-markdown').length;
      reject(
        new Error(`Not rendered in 30 s: ${count} Markdown blocks; ${invalid ?? 'no validation issue'}`),
      );
    }, 30_000);
    const check = new MutationObserver(() => {
      if (Number.isNaN(title) && container.querySelector('.lu-title') !== null) {
        void container.offsetHeight; // the layout the page needs before it can paint
        title = performance.now() - start;
      }
      if (
        Number.isNaN(firstDom) &&
        container.querySelector('.lu-body-pending') === null &&
        container.querySelectorAll('.lu-markdown').length === MARKDOWN_BLOCKS
      ) {
        void container.offsetHeight;
        firstDom = performance.now() - start;
      }
      if (
        container.querySelectorAll('.lu-markdown').length === MARKDOWN_BLOCKS &&
        container.querySelector('.lu-markdown[aria-busy]') === null &&
        container.querySelectorAll('.lu-markdown > *').length > 0
      ) {
        void container.offsetHeight;
        complete = performance.now() - start;
        check.disconnect();
        resolve();
      }
    });
    check.observe(container, { childList: true, subtree: true, attributes: true });
    root.render(<renderer.IntelligentUIView document={JSON.parse(text)} />);
  });
  // Long-task entries arrive after the task: give them a frame.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return {
    title,
    firstDom,
    complete,
    longestTask: Math.max(0, ...tasks),
    bytes: new TextEncoder().encode(text).length,
  };
}

function unmount(): void {
  if (mounted === null) return;
  mounted.root.unmount();
  mounted.container.remove();
  mounted = null;
}

/** Delivers `text`, times it to the DOM, and removes it. */
async function deliver(text: string): Promise<RenderTiming> {
  const timing = await mount(text);
  unmount();
  return timing;
}

/** What React rendered while counting: component renders, and the Markdown blocks among them. */
export interface RenderCount {
  readonly commits: number;
  /** Function, class and memo components that ran (every node is a few: NodeView, its boundary, its view). */
  readonly components: number;
  /** Of those, the components of Markdown blocks (their first element is a `.lu-markdown`). */
  readonly markdownComponents: number;
  /** Distinct Markdown blocks with at least one of their components rendered. */
  readonly markdownBlocks: number;
}

/** React's fiber, the fields the counter reads (the same ones React DevTools reads). */
interface Fiber {
  readonly tag: number;
  readonly flags: number;
  readonly alternate: Fiber | null;
  readonly child: Fiber | null;
  readonly sibling: Fiber | null;
  readonly stateNode: unknown;
}

/** Function, class, forwardRef, memo and simple memo components (React's work tags). */
const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
const HOST_COMPONENT = 5;
/** The flag React sets on a component that ran in this render (DevTools' `didFiberRender`). */
const PERFORMED_WORK = 1;

function firstElement(fiber: Fiber | null): Element | null {
  for (let current = fiber; current !== null; current = current.sibling) {
    if (current.tag === HOST_COMPONENT) return current.stateNode as Element;
    const inside = firstElement(current.child);
    if (inside !== null) return inside;
  }
  return null;
}

let counting: {
  commits: number;
  components: number;
  markdownComponents: number;
  blocks: Set<Element>;
} | null = null;

/**
 * Counts one commit's component renders. A subtree React bailed out of keeps its old child fibers (the same
 * object as the alternate's child), so it is not walked: its flags are from an earlier render.
 */
function countCommit(root: { current: Fiber }): void {
  const tally = counting;
  if (tally === null) return;
  tally.commits++;
  const visit = (first: Fiber | null): void => {
    for (let fiber = first; fiber !== null; fiber = fiber.sibling) {
      if (COMPONENT_TAGS.has(fiber.tag) && (fiber.flags & PERFORMED_WORK) !== 0) {
        tally.components++;
        const element = firstElement(fiber.child);
        if (element?.classList.contains('lu-markdown')) {
          tally.markdownComponents++;
          tally.blocks.add(element);
        }
      }
      if (fiber.alternate === null || fiber.child !== fiber.alternate.child) visit(fiber.child);
    }
  };
  visit(root.current.child);
}

function startCounting(): void {
  counting = { commits: 0, components: 0, markdownComponents: 0, blocks: new Set() };
}

function stopCounting(): RenderCount {
  if (counting === null) throw new Error('Not counting renders.');
  const { commits, components, markdownComponents, blocks } = counting;
  counting = null;
  return { commits, components, markdownComponents, markdownBlocks: blocks.size };
}

declare global {
  interface Window {
    lineupBench: typeof lineupBench;
    /** Called by the bench's DevTools hook (installed before React) on every commit. */
    lineupOnCommit?: (root: { current: Fiber }) => void;
  }
}

/**
 * What a host does when the page is idle after it loaded (`prepareRenderer`), then waits two frames; false when
 * the renderer benchmarked has no `prepareRenderer` (an older version). The render passes it starts (this version)
 * go on in later tasks; `preparedAfter` tells when they were done.
 */
async function prepare(): Promise<boolean> {
  const prepareRenderer = (renderer as { prepareRenderer?: () => unknown }).prepareRenderer;
  if (prepareRenderer === undefined) return false;
  const start = performance.now();
  const passes = prepareRenderer();
  preparedAfter = null;
  if (passes instanceof Promise) void passes.then(() => (preparedAfter = performance.now() - start));
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return true;
}

/** Milliseconds from `prepareRenderer`'s call to its render passes done (null: not yet, or none). */
let preparedAfter: number | null = null;

const lineupBench = {
  prepare,
  preparedAfter: () => preparedAfter,
  documentText,
  parseTime,
  deliver,
  mount,
  unmount,
  startCounting,
  stopCounting,
};
window.lineupBench = lineupBench;
window.lineupOnCommit = countCommit;
