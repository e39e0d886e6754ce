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

function startServer(kind) {
  const child = fork(join(here, 'server.mjs'), [kind, String(Math.max(CONNECTIONS, STREAM_CONNECTIONS))], {
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
const envelope = (conversation, type, payload) => {
  counter += 1;
  const id = `bench:o${counter}`;
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
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if (typeof frame.ack === 'string') waiting.get(frame.ack)?.();
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
    socket.once('close', (code) => reject(new Error(`closed ${code}`)));
  });
  return {
    socket,
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
      await connection.send(inventory(`c${index}`));
      for (let message = 0; message < MESSAGES; message += 1)
        latencies.push(
          await connection.send(
            envelope(`c${index}`, 'lineup.v1.chat.user_message', { text: `m${message}` }),
          ),
        );
    }),
  );
  for (const connection of connections) connection.socket.terminate();
  // Throughput: a few connections sending back to back.
  const streams = [];
  for (let index = 0; index < STREAM_CONNECTIONS; index += 1)
    streams.push(await connect(server.url, server.tokens[index]));
  let sent = 0;
  const until = performance.now() + SECONDS * 1_000;
  const started = performance.now();
  await Promise.all(
    streams.map(async (connection, index) => {
      await connection.send(inventory(`s${index}`));
      while (performance.now() < until) {
        await connection.send(envelope(`s${index}`, 'lineup.v1.chat.user_message', { text: 'go' }));
        sent += 1;
      }
    }),
  );
  const perSecond = sent / ((performance.now() - started) / 1_000);
  for (const connection of streams) connection.socket.terminate();
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
