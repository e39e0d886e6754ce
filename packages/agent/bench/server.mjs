// A server process for bench/ack-latency.mjs: `bare` (a plain `ws` server that acknowledges each envelope, the
// baseline) or the agent host of the built package on an embedded store folder or a PostgreSQL URL. It reports its
// URL, device tokens and memory to its parent over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { AgentStore, openDatabase, startAgentHost } from '../dist/index.js';

const [kind, devices] = process.argv.slice(2);

async function start() {
  if (kind === 'bare') {
    const server = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      handleProtocols: (offered) => (offered.has('lineup.v1.ack') ? 'lineup.v1.ack' : false),
    });
    await new Promise((resolve) => server.once('listening', resolve));
    server.on('connection', (socket) =>
      socket.on('message', (data) => socket.send(JSON.stringify({ ack: JSON.parse(String(data)).id }))),
    );
    return { url: `ws://127.0.0.1:${server.address().port}/agent`, tokens: [] };
  }
  const location = kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'lineup-agent-bench-')) : kind;
  const store = await AgentStore.open(await openDatabase(location));
  const tokens = [];
  for (let index = 0; index < Number(devices); index += 1)
    tokens.push(await store.issueDeviceToken(`bench-${index}`));
  // A brain that answers only `ping…` (the takeover figure) and says nothing else: the figure is the host's own
  // path (auth, record, ack).
  const brain = (context) => ({
    receive(message) {
      if (message.type !== 'lineup.v1.chat.user_message' || !message.payload.text.startsWith('ping')) return;
      context.send(
        JSON.stringify({
          v: 1,
          id: context.ids(),
          type: 'lineup.v1.chat.agent_message',
          conversation_id: context.key.conversationId,
          sender: { kind: 'agent', id: context.agentId },
          payload: { text: `pong ${message.payload.text}` },
        }),
      );
    },
  });
  const host = await startAgentHost({
    store,
    brain,
    port: 0,
    onProblem: (problem) =>
      console.error('[bench server]', problem instanceof Error ? problem.message : problem),
  });
  return { url: host.url, tokens, store };
}

const { store, ...started } = await start();

/**
 * The floor: the store's own write for each envelope (`takeEnvelope`, what the host does before it acks), called
 * directly in this process with the bench's concurrency — `connections` chains of `messages` sequential takes.
 */
async function floor(connections, messages) {
  const latencies = [];
  let counter = 0;
  await Promise.all(
    Array.from({ length: connections }, async (_, index) => {
      for (let message = 0; message < messages; message += 1) {
        counter += 1;
        const id = `floor:${counter}`;
        const started = performance.now();
        await store.takeEnvelope(
          { deviceId: `bench-${index}`, conversationId: `floor-${index}` },
          {
            v: 1,
            id,
            type: 'lineup.v1.chat.user_message',
            conversation_id: `floor-${index}`,
            sender: { kind: 'client', id: 'bench' },
            payload: { text: `m${message}` },
          },
        );
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

process.on('message', (message) => {
  if (message === 'memory') {
    globalThis.gc?.();
    process.send({ memory: process.memoryUsage().rss });
  } else if (typeof message === 'object' && message.floor !== undefined) {
    const run =
      store === undefined ? Promise.resolve([]) : floor(message.floor.connections, message.floor.messages);
    void run.then((latencies) => process.send({ floorLatencies: latencies }));
  }
});
process.send({ ready: started });
