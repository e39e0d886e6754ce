#!/usr/bin/env node
// The agent host against a bare `ws` server on this machine, each figure next to its baseline in the same run:
//
// 1. Envelope → ack latency at BENCH_CONNECTIONS (default 1,000) concurrent device connections: every connection
//    sends its inventory, then BENCH_MESSAGES (default 5) chat messages one after another, each awaiting its ack;
//    p50 and p99 of send → ack. The baseline acknowledges after JSON.parse only; the agent host authenticates the
//    connection, records each envelope (de-duplicated, in the conversation's log, one transaction) and then acks.
//    Target (issue 44): p99 ≤ 2 × the bare server's.
// 2. Memory per idle connection: the server process's RSS with all connections open and idle, minus before, per
//    connection.
// 3. Messages per second of one worker: BENCH_STREAM_CONNECTIONS (default 50) connections each sending messages
//    back to back (awaiting each ack) for BENCH_SECONDS (default 5).
//
//   pnpm --filter @lineup/agent bench      (builds the package, then runs on PGlite, and on PostgreSQL when
//                                           LINEUP_BENCH_POSTGRES_URL or LINEUP_TEST_POSTGRES_URL is set)
//
// Reports figures and ratios; exits non-zero on errors only.
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const here = dirname(fileURLToPath(import.meta.url));
const size = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const CONNECTIONS = size('BENCH_CONNECTIONS', 1_000);
const MESSAGES = size('BENCH_MESSAGES', 5);
const STREAM_CONNECTIONS = size('BENCH_STREAM_CONNECTIONS', 50);
const SECONDS = size('BENCH_SECONDS', 5);
const POSTGRES = process.env.LINEUP_BENCH_POSTGRES_URL ?? process.env.LINEUP_TEST_POSTGRES_URL;

function startServer(kind, devices = Math.max(CONNECTIONS, STREAM_CONNECTIONS)) {
  const child = fork(join(here, 'server.mjs'), [kind, String(devices)], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const request = (message, key) =>
    new Promise((resolve) => {
      const listener = (reply) => {
        if (key in reply) {
          child.off('message', listener);
          resolve(reply[key]);
        }
      };
      child.on('message', listener);
      if (message !== undefined) child.send(message);
    });
  return request(undefined, 'ready').then((ready) => ({
    ...ready,
    memory: () => request('memory', 'memory'),
    floor: () => request({ floor: { connections: CONNECTIONS, messages: MESSAGES } }, 'floorLatencies'),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGKILL');
      }),
  }));
}

let counter = 0;
/** Ids and conversations unique to this run: a PostgreSQL database kept between runs must not see copies. */
const RUN = Math.random().toString(36).slice(2, 10);
const envelope = (conversation, type, payload) => {
  counter += 1;
  const id = `bench:${RUN}:o${counter}`;
  return {
    id,
    text: JSON.stringify({
      v: 1,
      id,
      type,
      conversation_id: conversation,
      sender: { kind: 'client', id: 'bench' },
      payload,
    }),
  };
};
const inventory = (conversation) =>
  envelope(conversation, 'lineup.v1.client.inventory', {
    revision: `r-${conversation}`,
    standard_components: [],
    applications: [],
    capabilities: [],
    tools: [],
  });

/** A connection that resolves each sent envelope's promise on its ack. */
async function connect(url, token) {
  const target = new URL(url);
  if (token !== undefined) target.searchParams.set('token', token);
  const socket = new WebSocket(target, ['lineup.v1', 'lineup.v1.ack']);
  const waiting = new Map();
  const envelopeWaiters = new Set();
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if (typeof frame.ack === 'string') waiting.get(frame.ack)?.();
    else {
      socket.send(JSON.stringify({ ack: frame.id }));
      for (const waiter of envelopeWaiters) waiter(frame);
    }
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
    socket.once('close', (code) => reject(new Error(`closed ${code}`)));
  });
  return {
    socket,
    /** Resolves with the next agent envelope that `match` accepts. */
    next: (match) =>
      new Promise((resolve) => {
        const waiter = (frame) => {
          if (!match(frame)) return;
          envelopeWaiters.delete(waiter);
          resolve(frame);
        };
        envelopeWaiters.add(waiter);
      }),
    /** Sends and resolves with the milliseconds until its ack. */
    send({ id, text }) {
      const started = performance.now();
      return new Promise((resolve) => {
        waiting.set(id, () => {
          waiting.delete(id);
          resolve(performance.now() - started);
        });
        socket.send(text);
      });
    },
  };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function measure(kind) {
  const server = await startServer(kind);
  const before = await server.memory();
  const connections = [];
  for (let index = 0; index < CONNECTIONS; index += 1)
    connections.push(await connect(server.url, server.tokens[index]));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const idle = await server.memory();
  const latencies = [];
  await Promise.all(
    connections.map(async (connection, index) => {
      await connection.send(inventory(`${RUN}-c${index}`));
      for (let message = 0; message < MESSAGES; message += 1)
        latencies.push(
          await connection.send(
            envelope(`${RUN}-c${index}`, 'lineup.v1.chat.user_message', { text: `m${message}` }),
          ),
        );
    }),
  );
  for (const connection of connections) connection.socket.terminate();
  const perSecond = await throughput([server.url], server.tokens);
  const floorLatencies = await server.floor();
  await server.stop();
  return {
    kind,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    floorP99: floorLatencies.length === 0 ? undefined : percentile(floorLatencies, 99),
    bytesPerIdleConnection: Math.max(0, (idle - before) / CONNECTIONS),
    perSecond,
  };
}

/** Messages per second: STREAM_CONNECTIONS connections, spread over `urls`, each sending back to back. */
async function throughput(urls, tokens) {
  const streams = [];
  for (let index = 0; index < STREAM_CONNECTIONS; index += 1)
    streams.push(await connect(urls[index % urls.length], tokens[index]));
  let sent = 0;
  const until = performance.now() + SECONDS * 1_000;
  const started = performance.now();
  const stream = `${RUN}-${Math.random().toString(36).slice(2, 8)}`;
  await Promise.all(
    streams.map(async (connection, index) => {
      await connection.send(inventory(`${stream}-s${index}`));
      while (performance.now() < until) {
        await connection.send(envelope(`${stream}-s${index}`, 'lineup.v1.chat.user_message', { text: 'go' }));
        sent += 1;
      }
    }),
  );
  const perSecond = sent / ((performance.now() - started) / 1_000);
  for (const connection of streams) connection.socket.terminate();
  return perSecond;
}

/**
 * Two workers on one PostgreSQL: messages per second of one of them alone and of both (the connections spread over
 * the two), and the time from a SIGKILL of the worker that owns a conversation until its device, reconnected to the
 * other worker, has the answer to its next message (the other worker takes over once the lease ran out).
 */
async function twoWorkers(url) {
  const a = await startServer(url, STREAM_CONNECTIONS);
  const b = await startServer(url, 0);
  const alone = await throughput([a.url], a.tokens);
  const both = await throughput([a.url, b.url], a.tokens);
  const conversation = `${RUN}-move`;
  const pong = (text) => (frame) =>
    frame.type === 'lineup.v1.chat.agent_message' && frame.payload.text === `pong ${text}`;
  const first = await connect(a.url, a.tokens[0]);
  await first.send(inventory(conversation));
  const answered = first.next(pong('ping 1'));
  await first.send(envelope(conversation, 'lineup.v1.chat.user_message', { text: 'ping 1' }));
  await answered;
  const killedAt = performance.now();
  await a.stop(); // SIGKILL
  const second = await connect(b.url, a.tokens[0]);
  await second.send(inventory(conversation));
  const moved = second.next(pong('ping 2'));
  await second.send(envelope(conversation, 'lineup.v1.chat.user_message', { text: 'ping 2' }));
  await moved;
  const moveMs = performance.now() - killedAt;
  second.socket.terminate();
  await b.stop();
  return { alone, both, moveMs };
}

const rows = [await measure('bare'), await measure('pglite')];
if (POSTGRES) rows.push(await measure(POSTGRES));
const [bare] = rows;
const name = (kind) =>
  kind === 'bare'
    ? 'bare ws (baseline)'
    : kind === 'pglite'
      ? 'agent host, PGlite'
      : 'agent host, PostgreSQL';
console.log(
  `\n${CONNECTIONS} connections × ${MESSAGES} messages (envelope → ack); ${STREAM_CONNECTIONS} connections back to back for ${SECONDS} s\n`,
);
console.log(
  '| server | p50 ms | p99 ms | p99 ÷ baseline | store floor p99 ms | p99 ÷ floor | KiB per idle connection | messages/s | ÷ baseline |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const fixed = (value) => (value === undefined ? '—' : value.toFixed(2));
for (const row of rows)
  console.log(
    `| ${name(row.kind)} | ${fixed(row.p50)} | ${fixed(row.p99)} | ${fixed(row.p99 / bare.p99)} | ${fixed(row.floorP99)} | ${fixed(row.floorP99 && row.p99 / row.floorP99)} | ${(row.bytesPerIdleConnection / 1024).toFixed(1)} | ${Math.round(row.perSecond)} | ${fixed(row.perSecond / bare.perSecond)} |`,
  );
console.log(
  '\nThe store floor is the write the host makes before each ack (takeEnvelope), called directly in the server process with the same concurrency: an ack that follows a durable record cannot come sooner.',
);

if (POSTGRES) {
  const workers = await twoWorkers(POSTGRES);
  console.log(
    `\nTwo workers on one PostgreSQL (${STREAM_CONNECTIONS} connections back to back for ${SECONDS} s):\n`,
  );
  console.log('| workers | messages/s | ÷ one worker |');
  console.log('| --- | --- | --- |');
  console.log(`| one | ${Math.round(workers.alone)} | 1.00 |`);
  console.log(`| two | ${Math.round(workers.both)} | ${(workers.both / workers.alone).toFixed(2)} |`);
  console.log(
    `\nA conversation moved to the other worker ${Math.round(workers.moveMs)} ms after a SIGKILL of its owner (lease 5,000 ms, poll 250 ms).`,
  );
}
