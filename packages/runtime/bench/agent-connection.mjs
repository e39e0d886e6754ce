#!/usr/bin/env node
// The agent connection of the built package, each figure against a baseline measured in the same run:
//
// 1. Client → agent `ui.event` throughput over the WebSocket binding, in Node: `AgentClient` on
//    `createWebSocketTransport` (a `ws` socket) sending N `sendUIEvent`s one after another, each awaited, until a
//    local `ws` server (plain `lineup.v1`: it picks the first subprotocol offered) has received all N, versus a
//    bare `ws` client sending the same envelope texts, awaiting each `send` callback, to the same kind of server.
//    Target (issue): ≤ 2 × the baseline's time per message.
// 2. Agent → DOM in Chromium: one ~250 KiB `lineup.v1.ui.document`, from `agent.send(text)` on an in-process
//    transport until `IntelligentUIView` (`@lineup/renderer-react`) has the document's interface in the DOM,
//    versus `parseDocument(JSON.parse(text))` of the same document text alone, in the same page.
//
//   pnpm --filter @lineup/runtime bench:agent   (builds the runtime and the renderer, then the page against dist/)
//
// Reports ratios, never absolute limits: it exits non-zero on errors only. BENCH_EVENTS, BENCH_EVENT_ROUNDS and
// BENCH_RENDER_RUNS change the sizes.
import { once } from 'node:events';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from '@lineup/shared';
import { parseEnvelope } from '@lineup/shared/protocol';
import { chromium } from '@playwright/test';
import { build, preview, runnerImport } from 'vite';
import { WebSocket, WebSocketServer } from 'ws';
import { AgentClient, createWebSocketTransport, LINEUP_WEBSOCKET_PROTOCOLS } from '../dist/index.js';
import { buildDocument, describeDocument } from './agent-document.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const size = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const EVENTS = size('BENCH_EVENTS', 5_000);
const EVENT_ROUNDS = size('BENCH_EVENT_ROUNDS', 7);
/** Messages per block of the client and of the baseline within a round. */
const EVENT_BLOCK = 250;
const RENDER_RUNS = size('BENCH_RENDER_RUNS', 7);
const RENDER_WARMUP = 2;
const TARGETS = { events: 2 };
const CONVERSATION = 'conv_1';
const INVENTORY = { revision: 'inventory-0', standard_components: [], applications: [], capabilities: [] };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fixed = (value, digits = 2) => value.toFixed(digits);
const met = (ratio, target) => (ratio <= target ? `met (≤ ${target})` : `NOT met (target ≤ ${target})`);
const eventOf = (index) => ({ instance_id: 'bench.surface', event: 'tick', data: { n: index } });

// ── 1. ui.event throughput ────────────────────────────────────────────────────────────────────────────

/**
 * A local agent: a `ws` server with the package's defaults (it takes the first subprotocol offered, no
 * compression). It counts text frames; `expect(n)` resolves when n more have arrived, keeping them if asked.
 */
async function startAgent() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  let waiting = null;
  const protocols = [];
  server.on('connection', (socket) => {
    protocols.push(socket.protocol);
    socket.on('message', (data) => {
      if (waiting === null) throw new Error('a frame arrived that nobody expected');
      if (waiting.keep) waiting.frames.push(data.toString());
      if (++waiting.count === waiting.n) {
        const done = waiting;
        waiting = null;
        done.resolve({ at: performance.now(), frames: done.frames });
      }
    });
  });
  return {
    url: `ws://127.0.0.1:${server.address().port}/agent`,
    protocols,
    expect(n, keep = false) {
      if (waiting !== null) throw new Error('already expecting frames');
      return new Promise((resolve) => {
        waiting = { n, count: 0, keep, frames: [], resolve };
      });
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Sends left with `bufferedAmount` above 0 (the transport then polls every 10 ms until it drains). */
let undrainedSends = 0;
let clientSends = 0;
const connect = (url, protocols) => {
  const socket = new WebSocket(url, protocols);
  const send = socket.send.bind(socket);
  socket.send = (data) => {
    send(data);
    clientSends++;
    if (socket.bufferedAmount !== 0) undrainedSends++;
  };
  return socket;
};

async function eventThroughput() {
  const clientAgent = await startAgent();
  const bareAgent = await startAgent();
  const problems = [];
  const transport = createWebSocketTransport({ url: clientAgent.url, connect });
  const client = new AgentClient({
    transport,
    clientId: 'bench',
    inventory: async () => INVENTORY,
    conversations: [CONVERSATION],
    handlers: { problem: (error) => problems.push(error) },
  });
  const inventory = clientAgent.expect(1, true);
  client.start();
  const [sessionStart] = (await inventory).frames;
  if (JSON.parse(sessionStart).type !== 'lineup.v1.client.inventory')
    throw new Error(`the session started with ${sessionStart}`);

  const bare = new WebSocket(bareAgent.url, [...LINEUP_WEBSOCKET_PROTOCOLS]);
  await once(bare, 'open');

  /** `sendUIEvent`s `from`..`to`, each awaited, until the agent has them all; returns ms (and the frames). */
  const clientBlock = async (from, to, keep = false) => {
    const received = clientAgent.expect(to - from, keep);
    const started = performance.now();
    for (let index = from; index < to; index++) await client.sendUIEvent(CONVERSATION, eventOf(index));
    const { at, frames } = await received;
    return { ms: at - started, frames };
  };
  /** The same texts from a bare `ws` client, each `send` awaited to its callback. */
  const bareBlock = async (frames, from, to) => {
    const received = bareAgent.expect(to - from);
    const started = performance.now();
    for (let index = from; index < to; index++)
      await new Promise((resolve, reject) =>
        bare.send(frames[index], (error) => (error ? reject(error) : resolve())),
      );
    const { at } = await received;
    return at - started;
  };

  // The first round captures the exact frames the client sent (and warms both paths up).
  const { frames } = await clientBlock(0, EVENTS, true);
  const first = parseEnvelope(JSON.parse(frames[0]), { direction: 'client_to_agent' });
  if (first.kind !== 'message' || first.message.type !== 'lineup.v1.ui.event')
    throw new Error(`the client sent ${frames[0]}`);
  await bareBlock(frames, 0, EVENTS);

  // Each round interleaves the two in blocks, alternating which goes first, so that they share whatever else
  // the machine is doing.
  const times = { client: [], bare: [] };
  const ratios = [];
  undrainedSends = 0;
  clientSends = 0;
  for (let round = 0; round < EVENT_ROUNDS; round++) {
    const ms = { client: 0, bare: 0 };
    for (let block = 0; block * EVENT_BLOCK < EVENTS; block++) {
      const from = block * EVENT_BLOCK;
      const to = Math.min(EVENTS, from + EVENT_BLOCK);
      const order = (round + block) % 2 === 0 ? ['client', 'bare'] : ['bare', 'client'];
      for (const kind of order)
        ms[kind] += kind === 'client' ? (await clientBlock(from, to)).ms : await bareBlock(frames, from, to);
    }
    times.client.push(ms.client / EVENTS);
    times.bare.push(ms.bare / EVENTS);
    ratios.push(ms.client / ms.bare);
  }

  // Diagnostic: what the client does per message before the socket, alone: build the envelope, check it with
  // `parseEnvelope` (as `AgentClient` does before every send), `JSON.stringify` it.
  const check = (count) => {
    const started = performance.now();
    for (let index = 0; index < count; index++) {
      const envelope = {
        v: 1,
        id: `bench:${crypto.randomUUID()}`,
        type: 'lineup.v1.ui.event',
        conversation_id: CONVERSATION,
        sender: { kind: 'client', id: 'bench' },
        payload: eventOf(index),
      };
      if (parseEnvelope(envelope, { direction: 'client_to_agent' }).kind !== 'message')
        throw new Error('invalid');
      JSON.stringify(envelope);
    }
    return (performance.now() - started) / count;
  };
  check(EVENTS);
  const checkMs = median([check(EVENTS), check(EVENTS), check(EVENTS)]);

  const protocol = transport.protocol;
  client.stop();
  bare.close();
  await clientAgent.close();
  await bareAgent.close();
  if (problems.length > 0) throw problems[0];
  return {
    protocol,
    bareProtocol: bareAgent.protocols[0],
    frameBytes: Buffer.byteLength(frames[0]),
    clientMs: median(times.client),
    bareMs: median(times.bare),
    ratio: median(ratios),
    ratios,
    checkMs,
    undrainedSends,
    clientSends,
  };
}

// ── 2. ui.document to the DOM ─────────────────────────────────────────────────────────────────────────

async function documentToDom() {
  // The workspace's one home for how Chromium is launched; TypeScript, so loaded through Vite's module runner.
  const { module: shared } = await runnerImport(join(here, '..', '..', '..', 'playwright.shared.ts'));
  const { CHROMIUM_LAUNCH_OPTIONS } = shared;
  const renderer = join(here, '..', '..', 'renderer-react');
  const work = await mkdtemp(join(tmpdir(), 'lineup-agent-bench-'));
  const outDir = join(work, 'page');
  const root = join(here, 'agent-page');
  let server;
  let browser;
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      // One chunk on purpose: React, the renderer and the runtime together are over Vite's 500 kB warning.
      build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2_000 },
      // The packages as an outside host uses them: their builds. React comes from the renderer's own
      // dependencies (the runtime package has none), one copy for the renderer and the page.
      resolve: {
        alias: [
          { find: /^@lineup\/runtime$/, replacement: join(here, '..', 'dist', 'index.js') },
          { find: /^@lineup\/renderer-react$/, replacement: join(renderer, 'dist', 'index.js') },
          {
            find: /^@lineup\/renderer-react\/styles\.css$/,
            replacement: join(renderer, 'styles', 'renderer.css'),
          },
          { find: /^react$/, replacement: await realpath(join(renderer, 'node_modules', 'react')) },
          { find: /^react-dom$/, replacement: await realpath(join(renderer, 'node_modules', 'react-dom')) },
          {
            find: /^react-dom\/client$/,
            replacement: join(await realpath(join(renderer, 'node_modules', 'react-dom')), 'client.js'),
          },
        ],
      },
    });
    server = await preview({
      configFile: false,
      root,
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    const url = server.resolvedUrls?.local[0];
    if (!url) throw new Error('the benchmark page has no URL');
    browser = await chromium.launch({ ...CHROMIUM_LAUNCH_OPTIONS, headless: true });
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error));
    await page.goto(url);
    await page.waitForFunction(() => 'bench' in window);
    await page.evaluate(() => window.bench.ready());

    const texts = (run) => {
      const title = `Sales by product, run ${run}`;
      const document = buildDocument(title);
      const documentText = JSON.stringify(document);
      const envelopeText = JSON.stringify({
        v: 1,
        id: `agent:document-${run}`,
        type: 'lineup.v1.ui.document',
        conversation_id: CONVERSATION,
        sender: { kind: 'agent', id: 'bench-agent' },
        payload: { document },
      });
      return { title, documentText, envelopeText };
    };
    const sample = buildDocument('Sales by product');
    parseDocument(sample);
    const shape = describeDocument(sample);
    const envelopeBytes = Buffer.byteLength(texts(0).envelopeText);

    const KINDS = ['client', 'baseline', 'envelope', 'view', 'plain'];
    const results = Object.fromEntries(KINDS.map((kind) => [kind, []]));
    const ratios = [];
    for (let run = -RENDER_WARMUP; run < RENDER_RUNS; run++) {
      const { title, documentText, envelopeText } = texts(run + RENDER_WARMUP);
      const order = run % 2 === 0 ? KINDS : [...KINDS].reverse();
      const result = {};
      for (const kind of order) {
        if (kind === 'client')
          result.client = await page.evaluate(
            ({ envelopeText, title }) => window.bench.receiveAndRender(envelopeText, title),
            { envelopeText, title },
          );
        else if (kind === 'baseline')
          result.baseline = await page.evaluate(
            ({ documentText, title }) => window.bench.parseAlone(documentText, title),
            { documentText, title },
          );
        else if (kind === 'envelope')
          result.envelope = await page.evaluate((text) => window.bench.envelopeAlone(text), envelopeText);
        else if (kind === 'view')
          result.view = await page.evaluate(
            ({ documentText, title }) => window.bench.viewAlone(documentText, title),
            { documentText, title },
          );
        else
          result.plain = await page.evaluate(
            ({ documentText, title }) => window.bench.plainReactAlone(documentText, title),
            { documentText, title },
          );
      }
      if (run === -RENDER_WARMUP) {
        const dom = await page.evaluate(() => window.bench.renderedSize());
        if (dom.cells !== shape.cells || dom.tables !== shape.tables)
          throw new Error(
            `rendered ${JSON.stringify(dom)}, expected ${shape.tables} tables, ${shape.cells} cells`,
          );
      }
      if (run < 0) continue;
      for (const kind of KINDS) results[kind].push(result[kind]);
      ratios.push(result.client.inDomMs / result.baseline);
    }
    if (errors.length > 0) throw errors[0];
    return {
      chromium: browser.version(),
      shape,
      envelopeBytes,
      clientInDomMs: median(results.client.map((r) => r.inDomMs)),
      clientNextFrameMs: median(results.client.map((r) => r.nextFrameMs)),
      baselineMs: median(results.baseline),
      envelopeMs: median(results.envelope),
      viewInDomMs: median(results.view.map((r) => r.inDomMs)),
      viewNextFrameMs: median(results.view.map((r) => r.nextFrameMs)),
      plainInDomMs: median(results.plain.map((r) => r.inDomMs)),
      ratio: median(ratios),
      ratios,
    };
  } finally {
    await browser?.close();
    if (server) await new Promise((resolve) => server.httpServer.close(resolve));
    await rm(work, { recursive: true, force: true });
  }
}

// ── Report ────────────────────────────────────────────────────────────────────────────────────────────

const events = await eventThroughput();
console.log(`@lineup/runtime agent connection benchmark — Node ${process.version}`);
console.log(
  `\n1. ui.event, client → agent over WebSocket (subprotocol "${events.protocol}"): median of ${EVENT_ROUNDS} rounds of ${EVENTS} messages, each awaited, interleaved in blocks of ${EVENT_BLOCK}, ${events.frameBytes}-byte frames, after one untimed round`,
);
const eventRow = (label, ms, note = '') =>
  `  ${label.padEnd(52)} ${fixed(ms * 1000, 1).padStart(8)} µs ${fixed(1000 / ms, 0).padStart(8)} /s  ${note}`;
console.log(`  ${''.padEnd(52)} ${'per message'.padStart(11)} ${'messages'.padStart(11)}`);
console.log(eventRow('AgentClient.sendUIEvent (WebSocket transport)', events.clientMs));
console.log(eventRow('baseline: bare ws send of the same text, awaited', events.bareMs));
console.log(
  eventRow(
    '  (build + parseEnvelope + JSON.stringify alone)',
    events.checkMs,
    `${fixed(events.checkMs / events.bareMs)} × baseline`,
  ),
);
console.log(
  `  client / baseline, time per message: ${fixed(events.ratio)} × (rounds: ${events.ratios.map((r) => fixed(r)).join(', ')}) — target ${met(events.ratio, TARGETS.events)}`,
);
console.log(
  `  sends that left bytes buffered (each then waits for a 10 ms drain poll): ${events.undrainedSends} of ${events.clientSends}`,
);

const dom = await documentToDom();
console.log(
  `\n2. ui.document, agent → DOM in Chromium ${dom.chromium}: ${dom.shape.bytes}-byte document (${dom.envelopeBytes}-byte envelope; ${dom.shape.components} components, ${dom.shape.tables} tables, ${dom.shape.rows} rows, ${dom.shape.cells} cells), median of ${RENDER_RUNS} runs after ${RENDER_WARMUP}`,
);
const domRow = (label, ms, note = '') => `  ${label.padEnd(60)} ${fixed(ms, 1).padStart(8)} ms  ${note}`;
console.log(domRow('agent.send(text) → AgentClient → IntelligentUIView, in the DOM', dom.clientInDomMs));
console.log(domRow('  … and the next animation frame', dom.clientNextFrameMs));
console.log(domRow('baseline: parseDocument(JSON.parse(document text))', dom.baselineMs));
console.log(
  domRow(
    '  (parseEnvelopeText of the envelope alone)',
    dom.envelopeMs,
    `${fixed(dom.envelopeMs / dom.baselineMs)} × baseline`,
  ),
);
console.log(
  domRow(
    '  (IntelligentUIView of JSON.parse(document text), in the DOM)',
    dom.viewInDomMs,
    `${fixed(dom.viewInDomMs / dom.baselineMs)} × baseline`,
  ),
);
console.log(
  domRow(
    '  (plain React elements, same tags and cells, in the DOM)',
    dom.plainInDomMs,
    `${fixed(dom.plainInDomMs / dom.baselineMs)} × baseline`,
  ),
);
console.log(
  `  client to DOM / baseline: ${fixed(dom.ratio)} × (runs: ${fixed(Math.min(...dom.ratios))}–${fixed(Math.max(...dom.ratios))})`,
);

const figures = {
  node: process.version,
  chromium: dom.chromium,
  uiEvent: {
    messages: EVENTS,
    rounds: EVENT_ROUNDS,
    protocol: events.protocol,
    frameBytes: events.frameBytes,
    clientUsPerMessage: events.clientMs * 1000,
    baselineUsPerMessage: events.bareMs * 1000,
    envelopeCheckUsPerMessage: events.checkMs * 1000,
    undrainedSends: events.undrainedSends,
    ratio: events.ratio,
    ratios: events.ratios,
    target: TARGETS.events,
    met: events.ratio <= TARGETS.events,
  },
  uiDocument: {
    documentBytes: dom.shape.bytes,
    envelopeBytes: dom.envelopeBytes,
    components: dom.shape.components,
    cells: dom.shape.cells,
    runs: RENDER_RUNS,
    clientToDomMs: dom.clientInDomMs,
    clientToNextFrameMs: dom.clientNextFrameMs,
    baselineParseMs: dom.baselineMs,
    envelopeCheckMs: dom.envelopeMs,
    viewAloneToDomMs: dom.viewInDomMs,
    plainReactToDomMs: dom.plainInDomMs,
    ratio: dom.ratio,
  },
};
console.log(`\n(the run took ${fixed(performance.now() / 1000, 1)} s)`);
console.log(`\n${JSON.stringify(figures)}`);
