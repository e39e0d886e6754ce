/**
 * The page side of the render benchmark (render-speed.bench.ts), bundled with the renderer's sources: it
 * delivers a document the way a host does (JSON text → parsed value → IntelligentUIView) and times it to the
 * DOM, against `parseDocument` of the same text.
 */
import { IntelligentUIView } from '@lineup/renderer-react';
import '@lineup/renderer-react/styles.css';
import { parseDocument } from '@lineup/shared';
import { createRoot } from 'react-dom/client';
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

async function deliver(text: string): Promise<RenderTiming> {
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
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
    root.render(<IntelligentUIView document={JSON.parse(text)} />);
  });
  // Long-task entries arrive after the task: give them a frame.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  root.unmount();
  container.remove();
  return {
    title,
    firstDom,
    complete,
    longestTask: Math.max(0, ...tasks),
    bytes: new TextEncoder().encode(text).length,
  };
}

declare global {
  interface Window {
    lineupBench: typeof lineupBench;
  }
}

const lineupBench = {
  documentText,
  parseTime,
  deliver,
};
window.lineupBench = lineupBench;
