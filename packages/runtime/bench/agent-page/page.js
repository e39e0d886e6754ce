// The page `agent-connection.mjs` drives in Chromium: the built `@lineup/runtime` client (`AgentClient` on an
// in-process transport) receiving one `lineup.v1.ui.document` and rendering it with the built
// `@lineup/renderer-react`, against `parseDocument` of the same document text alone. Plain JavaScript (no JSX,
// no types) so that the runtime package needs neither React nor the renderer among its own dependencies; Vite
// resolves them from the renderer's package. Every function times itself with `performance.now()`.
import '@lineup/renderer-react/styles.css';
import { IntelligentUIView } from '@lineup/renderer-react';
import { AgentClient, createInProcessTransport } from '@lineup/runtime';
import { parseDocument } from '@lineup/shared';
import { parseEnvelopeText } from '@lineup/shared/protocol';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const CONVERSATION = 'conv_1';
const container = document.getElementById('root');
const root = createRoot(container);
const problems = [];
const agentFrames = [];

const show = (doc) => root.render(createElement(IntelligentUIView, { key: doc.id, document: doc }));

const { transport, agent } = createInProcessTransport();
agent.onFrame((text) => agentFrames.push(text));
const client = new AgentClient({
  transport,
  clientId: 'bench',
  inventory: async () => ({
    revision: 'inventory-0',
    standard_components: [],
    applications: [],
    capabilities: [],
  }),
  conversations: [CONVERSATION],
  handlers: {
    document: (message) => show(message.payload.document),
    problem: (error) => problems.push(String(error)),
  },
});
client.start();

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/** The rendered document, if the view shows `title` (an invalid document renders `.lu-invalid` instead). */
const rendered = (title) => {
  const section = container.querySelector('section.lu-ui, section.bench-plain');
  return section !== null && !section.classList.contains('lu-invalid') && section.ariaLabel === title;
};

/**
 * Resolves with the time the view showing `title` entered the DOM (seen by a MutationObserver, in the
 * microtask after React's commit) and the time of the next animation frame after that.
 */
function appearance(title) {
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      observer.disconnect();
      reject(
        new Error(`"${title}" was not rendered within 20 s: ${problems.join('; ') || 'no problem reported'}`),
      );
    }, 20_000);
    const observer = new MutationObserver(() => {
      if (!rendered(title)) {
        if (container.querySelector('.lu-invalid') !== null) {
          clearTimeout(timeout);
          observer.disconnect();
          reject(new Error(`the document was rendered invalid: ${container.textContent}`));
        }
        return;
      }
      const inDom = performance.now();
      clearTimeout(timeout);
      observer.disconnect();
      requestAnimationFrame(() => resolve({ inDom, nextFrame: performance.now() }));
    });
    observer.observe(container, { childList: true, subtree: true });
  });
}

/** Unmounts whatever is shown and lets two frames pass, so each run mounts the view afresh. */
async function clear() {
  root.render(null);
  await frame();
  await frame();
}

async function ready() {
  const started = performance.now();
  while (client.status !== 'open' || agentFrames.length === 0) {
    if (performance.now() - started > 10_000) throw new Error('the client never opened its session');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { status: client.status, firstFrameType: JSON.parse(agentFrames[0]).type };
}

/** `agent.send(envelope text)` until the view of its document is in the DOM (and the next frame). */
async function receiveAndRender(envelopeText, title) {
  await clear();
  const appeared = appearance(title);
  const started = performance.now();
  agent.send(envelopeText);
  const { inDom, nextFrame } = await appeared;
  if (problems.length > 0) throw new Error(problems.join('; '));
  return { inDomMs: inDom - started, nextFrameMs: nextFrame - started };
}

/** Baseline: `parseDocument(JSON.parse(text))` of the document text alone. */
async function parseAlone(documentText, title) {
  await clear();
  const started = performance.now();
  const parsed = parseDocument(JSON.parse(documentText));
  const elapsed = performance.now() - started;
  if (parsed.title !== title) throw new Error('the baseline parsed another document');
  return elapsed;
}

/** Diagnostic: the client's envelope check alone (`parseEnvelopeText`, which also runs `JSON.parse`). */
async function envelopeAlone(envelopeText) {
  await clear();
  const started = performance.now();
  const parsed = parseEnvelopeText(envelopeText, { direction: 'agent_to_client' });
  const elapsed = performance.now() - started;
  if (parsed.kind !== 'message') throw new Error(`the envelope is ${parsed.kind}`);
  return elapsed;
}

/** Diagnostic: the view alone, mounted with `JSON.parse` of the document text, until it is in the DOM. */
async function viewAlone(documentText, title) {
  await clear();
  const appeared = appearance(title);
  const started = performance.now();
  show(JSON.parse(documentText));
  const { inDom, nextFrame } = await appeared;
  return { inDomMs: inDom - started, nextFrameMs: nextFrame - started };
}

/**
 * Diagnostic: React alone — the same elements (heading, paragraphs, tables with their cells) as plain React
 * elements built from `JSON.parse` of the document text, no renderer and no validation — until in the DOM.
 */
async function plainReactAlone(documentText, title) {
  await clear();
  const appeared = appearance(title);
  const started = performance.now();
  const doc = JSON.parse(documentText);
  const nodes = doc.root.children.map((node) => {
    if (node.type === 'Heading') return createElement('h4', { key: node.id }, node.props.text);
    if (node.type === 'Text') return createElement('p', { key: node.id }, node.props.text);
    const { columns, rows } = node.props;
    return createElement(
      'table',
      { key: node.id },
      createElement(
        'thead',
        null,
        createElement(
          'tr',
          null,
          columns.map((column) => createElement('th', { key: column.key, scope: 'col' }, column.label)),
        ),
      ),
      createElement(
        'tbody',
        null,
        rows.map((row, index) =>
          createElement(
            'tr',
            { key: index },
            columns.map((column) => createElement('td', { key: column.key }, String(row[column.key]))),
          ),
        ),
      ),
    );
  });
  root.render(createElement('section', { className: 'bench-plain', 'aria-label': doc.title }, nodes));
  const { inDom, nextFrame } = await appeared;
  return { inDomMs: inDom - started, nextFrameMs: nextFrame - started };
}

/** What is in the DOM now, to check a run rendered everything. */
function renderedSize() {
  return {
    tables: container.querySelectorAll('table').length,
    cells: container.querySelectorAll('td').length,
  };
}

window.bench = {
  ready,
  receiveAndRender,
  parseAlone,
  envelopeAlone,
  viewAlone,
  plainReactAlone,
  renderedSize,
};
