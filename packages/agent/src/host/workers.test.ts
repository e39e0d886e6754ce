/**
 * Two worker processes (`lineup-agent serve`, the built CLI) on one PostgreSQL, 50 devices playing the Pomodoro story
 * with the scripted brain, all of them using the same sender id and envelope ids (two users' outboxes both counting
 * from 1). Worker A is killed with SIGKILL right after every device got its `pomodoro.start` call; every device then
 * reconnects to worker B, which takes the conversations over once A's lease ran out, rebuilds each brain from the
 * log, and goes on: each conversation gets one call, one "running" answer and one final answer — nothing lost,
 * nothing doubled. Runs when LINEUP_TEST_POSTGRES_URL names a server (`.ci/run` starts one).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { POMODORO_INVENTORY_TOOLS } from '../../../scripted-agent/test/pomodoro.js';
import { BACKENDS } from '../../test/databases.js';
import { clientEnvelope, connectDevice, inventoryEnvelope, type TestDevice } from '../../test/device.js';
import type { SqlDatabase } from '../store/sql.js';
import { AgentStore } from '../store/store.js';

const postgres = BACKENDS.find((backend) => backend.name === 'postgres');
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const DEVICES = 50;

interface Worker {
  readonly process: ChildProcess;
  readonly url: string;
  output: string;
}

function startWorker(store: string): Promise<Worker> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--store', store], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker = { process: child, url: '', output: '' };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No URL from the worker:\n${worker.output}`)), 30_000);
    const read = (chunk: Buffer) => {
      worker.output += String(chunk);
      const match = /listening on (ws:\/\/\S+)/.exec(worker.output);
      if (match !== null && worker.url === '') {
        clearTimeout(timer);
        resolve({ ...worker, url: match[1] as string, process: child });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`The worker exited (${code}):\n${worker.output}`)));
  });
}

const text = (frame: Record<string, unknown>) => String((frame.payload as { text?: unknown }).text ?? '');
const uniqueById = (frames: Record<string, unknown>[]) => [
  ...new Map(frames.map((frame) => [frame.id, frame])).values(),
];

describe.skipIf(postgres === undefined)('two workers on one PostgreSQL', () => {
  const workers: Worker[] = [];
  let db: SqlDatabase | undefined;
  afterAll(async () => {
    for (const worker of workers) worker.process.kill('SIGKILL');
    await db?.close();
    await postgres?.cleanup();
  });

  it(`${DEVICES} devices, the same envelope ids; SIGKILL of a worker mid-operation: nothing lost, nothing doubled`, async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build @lineup/agent first (turbo run build).`);
    const backend = postgres as NonNullable<typeof postgres>;
    db = await backend.open();
    const location = backend.locationOf(db);
    const store = await AgentStore.open(db);
    const tokens: string[] = [];
    for (let index = 0; index < DEVICES; index += 1)
      tokens.push(await store.issueDeviceToken(`device-${index}`));
    const a = await startWorker(location);
    const b = await startWorker(location);
    workers.push(a, b);

    // Every device says the same things with the same ids: sender web-host, envelope web-host:o1, o2, …
    const say = (device: TestDevice, type: string, payload: unknown, id: string) =>
      device.send(clientEnvelope('conv_1', type, payload, { id, sender: 'web-host' }));
    const inventory = () => ({ ...inventoryEnvelope('conv_1', 'r1', POMODORO_INVENTORY_TOOLS, 'web-host') });
    const onA = await Promise.all(tokens.map((token) => connectDevice(a.url, { token })));
    const calls = await Promise.all(
      onA.map(async (device) => {
        device.send(inventory());
        say(device, 'lineup.v1.chat.user_message', { text: 'start a 20 minute focus' }, 'web-host:o1');
        const call = await device.next((frame) => frame.type === 'lineup.v1.tool.call', 20_000);
        return (call.payload as { call_id: string }).call_id;
      }),
    );
    a.process.kill('SIGKILL');
    const killedAt = Date.now();

    const onB = await Promise.all(tokens.map((token) => connectDevice(b.url, { token })));
    await Promise.all(
      onB.map(async (device, index) => {
        const callId = calls[index] as string;
        device.send(inventory());
        say(
          device,
          'lineup.v1.tool.progress',
          { call_id: callId, app_scope: 'pomodoro', status: 'started' },
          'web-host:o2',
        );
        await device.next(
          (frame) => frame.type === 'lineup.v1.chat.agent_message' && /running/.test(text(frame)),
          30_000,
        );
        const result = {
          call_id: callId,
          outcome: 'completed',
          result: {
            status: 'completed',
            minutes: 20,
            started_at: '2026-01-01T10:00:00Z',
            ended_at: '2026-01-01T10:20:00Z',
          },
        };
        say(device, 'lineup.v1.tool.result', result, 'web-host:o3');
        say(device, 'lineup.v1.tool.result', result, 'web-host:o4'); // the same result again, under another id
        await device.next(
          (frame) =>
            frame.type === 'lineup.v1.chat.agent_message' &&
            /20 minutes/.test(text(frame)) &&
            !/running/.test(text(frame)),
          30_000,
        );
      }),
    );
    const movedAfterMs = Date.now() - killedAt;
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // anything doubled would have arrived by now

    for (const [index, device] of onB.entries()) {
      const all = uniqueById([...(onA[index] as TestDevice).envelopes(), ...device.envelopes()]);
      const ofType = (type: string) => all.filter((frame) => frame.type === type);
      expect(ofType('lineup.v1.tool.call')).toHaveLength(1);
      const answers = ofType('lineup.v1.chat.agent_message').map(text);
      // The acknowledgement of the request, "running", and the final answer: each once.
      expect(answers.filter((answer) => /running/.test(answer))).toHaveLength(1);
      expect(answers.filter((answer) => /20 minutes/.test(answer) && !/running/.test(answer))).toHaveLength(
        1,
      );
      expect(answers).toHaveLength(3);
    }
    const { rows } = await db.query<{ n: string; finals: string }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE status = 'final') AS finals FROM lineup_tool_calls`,
    );
    expect([Number(rows[0]?.n), Number(rows[0]?.finals)]).toEqual([DEVICES, DEVICES]);
    console.log(
      `[workers] ${DEVICES} conversations moved to worker B and finished ${movedAfterMs} ms after the SIGKILL`,
    );
    for (const device of [...onA, ...onB]) await device.close();
  }, 120_000);
});
