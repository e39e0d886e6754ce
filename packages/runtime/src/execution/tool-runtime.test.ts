/**
 * Executing accepted calls (seed 003 §4.2–§4.3, §5, §7) on fake-indexeddb with a hand-driven clock: the
 * activation, its waiting queue, the deadline operation and the interrupt, host intents, timeouts, output
 * checks, replays at every stage, and a restart (a new runtime over the same database) in the middle.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { focusManifest } from '../../test/manifests.js';
import { toolCall } from '../../test/utils.js';
import { AppRegistry } from '../apps/registry.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { type AppTarget, type RuntimeHost, type SessionDataSnapshot, ToolRuntime } from './tool-runtime.js';

const START = Date.parse('2026-12-01T08:00:00.000Z');
const MINUTE = 60_000;
const CONVERSATION = 'conv_1';

let db: RuntimeDatabase;
let registry: AppRegistry;
let clock: { now: number };
let host: RecordingHost;
let runtime: ToolRuntime;
let databases = 0;
let ids = 0;

interface RecordingHost extends RuntimeHost {
  readonly calls: string[];
  readonly snapshots: SessionDataSnapshot[];
}

function recordingHost(): RecordingHost {
  const calls: string[] = [];
  const snapshots: SessionDataSnapshot[] = [];
  return {
    calls,
    snapshots,
    requestForeground: (target: AppTarget) => void calls.push(`foreground ${target.appScope}`),
    closeApp: (target: AppTarget) => void calls.push(`close ${target.appScope}`),
    sessionDataChanged: (_target: AppTarget, snapshot: SessionDataSnapshot) => void snapshots.push(snapshot),
  };
}

function newRuntime(options: { readonly foregroundTimeoutMs?: number } = {}) {
  return new ToolRuntime(db, registry, {
    clock: { now: () => clock.now },
    ids: () => `id_${++ids}`,
    host,
    ...options,
  });
}

async function setUp(manifest: object = focusManifest()) {
  db = await openRuntimeDatabase(`tool-runtime-${databases++}`);
  clock = { now: START };
  registry = new AppRegistry(db, { clock: { now: () => clock.now } });
  await registry.install(manifest, { bundleUrl: '/apps/focus/' });
  host = recordingHost();
  runtime = newRuntime();
}

beforeEach(() => setUp());

/** The tool answers written to the outbox so far, as `call_id status-or-outcome`. */
async function answers(): Promise<string[]> {
  const rows = await db.getAll('outbox');
  return rows.flatMap((row) => {
    if (row.type === 'lineup.v1.tool.progress') return [`${row.payload.call_id} ${row.payload.status}`];
    if (row.type === 'lineup.v1.tool.result')
      return [
        `${row.payload.call_id} ${row.payload.outcome === 'completed' ? JSON.stringify(row.payload.result) : row.payload.error?.code}`,
      ];
    return [];
  });
}

async function finalOf(callId: string) {
  const record = await db.get('tool_calls', `${CONVERSATION}\n${callId}`);
  return record?.latest;
}

const advance = (milliseconds: number) => {
  clock.now += milliseconds;
};

describe('pomodoro-like start: foreground first, then the operation (seed 003 §7)', () => {
  it('accepted and starting; nothing runs before the host confirms the foreground', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    expect(await answers()).toEqual(['c1 accepted', 'c1 starting']);
    expect(host.calls).toEqual(['foreground focus']);
    expect(await db.getAll('operations')).toEqual([]);
    expect(host.snapshots).toEqual([]);
    expect((await finalOf('c1'))?.payload).toMatchObject({ status: 'starting' });
  });

  it('the confirmation starts the operation and says started, not also activation_ready', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20, label: 'meditation' }));
    advance(3_000);
    await runtime.confirmForeground(CONVERSATION, 'focus');
    expect(await answers()).toEqual(['c1 accepted', 'c1 starting', 'c1 started']);
    const [operation] = await db.getAll('operations');
    expect(operation).toMatchObject({
      status: 'running',
      minutes: 20,
      startedAt: START + 3_000,
      deadlineAt: START + 3_000 + 20 * MINUTE,
    });
    expect(host.snapshots).toEqual([
      {
        revision: 1,
        data: {
          operation: {
            status: 'running',
            minutes: 20,
            label: 'meditation',
            started_at: '2026-12-01T08:00:03.000Z',
            deadline_at: '2026-12-01T08:20:03.000Z',
          },
        },
      },
    ]);
    expect(await runtime.nextDueAt()).toBe(START + 3_000 + 20 * MINUTE);
  });

  it('completes at the deadline with its start and end, once', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    advance(20 * MINUTE - 1);
    expect(await runtime.settle()).toBe(0);
    advance(1);
    expect(await runtime.settle()).toBe(1);
    expect(await runtime.settle()).toBe(0);
    const completed = {
      status: 'completed',
      minutes: 20,
      started_at: '2026-12-01T08:00:00.000Z',
      ended_at: '2026-12-01T08:20:00.000Z',
    };
    expect(await answers()).toEqual([
      'c1 accepted',
      'c1 starting',
      'c1 started',
      `c1 ${JSON.stringify(completed)}`,
    ]);
    expect(host.snapshots.at(-1)).toMatchObject({
      revision: 2,
      data: { operation: { status: 'completed' } },
    });
    // A replay gets the final result again, and writes nothing.
    const replay = await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    expect(replay).toMatchObject({ disposition: 'replayed', answer: { payload: { result: completed } } });
    expect(await answers()).toHaveLength(4);
  });

  it('settles a deadline that passed while the page was closed, at its deadline', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 25 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    // The page closes; it opens again an hour later with a new runtime over the same database.
    advance(60 * MINUTE);
    runtime = newRuntime();
    expect(await runtime.settle()).toBe(1);
    expect((await finalOf('c1'))?.payload).toMatchObject({
      outcome: 'completed',
      result: { status: 'completed', ended_at: '2026-12-01T08:25:00.000Z' },
    });
  });

  it('ends not_started when the foreground never comes, and the waiting calls fail with it', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.receive(CONVERSATION, toolCall('c2', 'focus.peek'));
    advance(60_000);
    expect(await runtime.settle()).toBe(1);
    expect(await answers()).toEqual([
      'c1 accepted',
      'c1 starting',
      'c2 accepted',
      'c1 {"status":"not_started","reason":"foreground_not_confirmed"}',
      'c2 app_activation_failed',
    ]);
    expect(await db.getAll('operations')).toEqual([]);
  });
});

describe('interrupt (operation_interrupt, no activation needed)', () => {
  it('cancels a start still waiting for the foreground', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.receive(CONVERSATION, toolCall('c2', 'focus.peek'));
    await runtime.receive(CONVERSATION, toolCall('c3', 'focus.interrupt'));
    expect(await answers()).toEqual([
      'c1 accepted',
      'c1 starting',
      'c2 accepted',
      'c3 accepted',
      'c1 {"status":"not_started","reason":"cancelled"}',
      'c2 app_activation_cancelled',
      'c3 {"status":"start_cancelled"}',
    ]);
    expect(host.calls).toEqual(['foreground focus', 'close focus']);
    // A late confirmation starts nothing.
    await runtime.confirmForeground(CONVERSATION, 'focus');
    expect(await db.getAll('operations')).toEqual([]);
  });

  it('settles a running operation as interrupted by the agent, with how long it ran', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    advance(7 * MINUTE + 500);
    await runtime.receive(CONVERSATION, toolCall('c2', 'focus.interrupt'));
    expect((await answers()).slice(-2)).toEqual([
      'c1 {"status":"interrupted","started_at":"2026-12-01T08:00:00.000Z","interrupted_at":"2026-12-01T08:07:00.500Z","focused_seconds":420,"by":"agent"}',
      'c2 {"status":"interrupted"}',
    ]);
    expect(host.calls).toEqual(['foreground focus', 'close focus']);
    expect(host.snapshots.at(-1)?.data).toMatchObject({ operation: { status: 'interrupted', by: 'agent' } });
    // Its deadline no longer ends anything.
    advance(20 * MINUTE);
    expect(await runtime.settle()).toBe(0);
  });

  it('says nothing_to_interrupt when nothing runs', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.interrupt'));
    expect(await answers()).toEqual(['c1 accepted', 'c1 {"status":"nothing_to_interrupt"}']);
    expect(host.calls).toEqual([]);
  });

  it("acts on the conversation's own instance only", async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    await runtime.receive('conv_other', toolCall('c1', 'focus.interrupt'));
    expect((await db.getAll('operations'))[0]?.status).toBe('running');
  });
});

describe('host lifecycle intents (seed 003 §3, §7)', () => {
  it('leaving interrupts a running operation as user_left', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    advance(MINUTE);
    await runtime.hostIntent(CONVERSATION, 'focus', 'leave');
    expect((await finalOf('c1'))?.payload).toMatchObject({
      result: { status: 'interrupted', by: 'user_left' },
    });
    const audit = await db.getAll('audit');
    expect(audit.filter((entry) => entry.type === 'host_intent').map((entry) => entry.detail)).toEqual([
      'leave',
    ]);
    // No tool call was forged for it.
    expect((await db.getAll('tool_calls')).map((record) => record.callId)).toEqual(['c1']);
  });

  it('leaving before the foreground ends the start not_started', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.hostIntent(CONVERSATION, 'focus', 'leave');
    expect((await finalOf('c1'))?.payload).toMatchObject({
      result: { status: 'not_started', reason: 'foreground_not_confirmed' },
    });
  });

  it.each(['lock', 'background', 'surface_reload', 'resume'] as const)(
    '%s is not leaving',
    async (intent) => {
      await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
      await runtime.confirmForeground(CONVERSATION, 'focus');
      await runtime.hostIntent(CONVERSATION, 'focus', intent);
      expect((await db.getAll('operations'))[0]?.status).toBe('running');
      expect((await finalOf('c1'))?.payload).toMatchObject({ status: 'started' });
    },
  );
});

describe('the waiting queue (seed 003 §4.3)', () => {
  it('delivers the calls that arrived while starting after ready, in arrival order', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.receive(CONVERSATION, toolCall('c2', 'focus.peek'));
    await runtime.receive(CONVERSATION, toolCall('c3', 'focus.peek'));
    expect((await db.get('tool_calls', `${CONVERSATION}\nc2`))?.stage).toBe('waiting');
    await runtime.confirmForeground(CONVERSATION, 'focus');
    // The SDK handlers need the app's frame, which this host lacks: each fails, in order, after started.
    expect((await answers()).slice(-3)).toEqual(['c1 started', 'c2 execution_failed', 'c3 execution_failed']);
  });

  it('serves an app_ready call at once when the app is ready', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    await runtime.receive(CONVERSATION, toolCall('c2', 'focus.peek'));
    expect((await answers()).slice(-2)).toEqual(['c2 accepted', 'c2 execution_failed']);
  });
});

describe('final results', () => {
  it('are checked against the output schema: a result it refuses becomes invalid_output', async () => {
    const manifest = focusManifest();
    const interrupt = { ...manifest.tools[1]!, output_schema: { type: 'object', required: ['count'] } };
    await setUp({ ...manifest, tools: [manifest.tools[0], interrupt, manifest.tools[2]] });
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.interrupt'));
    expect(await answers()).toEqual(['c1 accepted', 'c1 invalid_output']);
  });

  it('a call past its timeout ends with timeout, and leaves the queue', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    runtime = newRuntime({ foregroundTimeoutMs: 60 * MINUTE });
    await runtime.receive(CONVERSATION, toolCall('c2', 'focus.peek'));
    advance(10_000);
    expect(await runtime.settle()).toBe(1);
    expect((await answers()).at(-1)).toBe('c2 timeout');
    const [activation] = await db.getAll('activations');
    expect(activation?.waiting).toEqual([]);
  });

  it('a deadline operation refuses a second start while one runs', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    await runtime.receive(CONVERSATION, toolCall('c2', 'focus.start', { minutes: 5 }));
    expect((await answers()).slice(-2)).toEqual(['c2 accepted', 'c2 execution_failed']);
    expect(await db.getAll('operations')).toHaveLength(1);
  });

  it('every call ends with exactly one final result in the outbox', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 1 }));
    await runtime.receive(CONVERSATION, toolCall('c2', 'focus.peek'));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    await runtime.receive(CONVERSATION, toolCall('c3', 'focus.interrupt'));
    await runtime.receive(CONVERSATION, toolCall('c4', 'focus.interrupt'));
    advance(10 * MINUTE);
    await runtime.settle();
    const results = (await db.getAll('outbox')).filter((row) => row.type === 'lineup.v1.tool.result');
    expect(results.map((row) => row.payload.call_id).sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
  });
});

describe('withdraw: a disabled, uninstalled or rolled-back app gets definite answers (seed 000 §5.1)', () => {
  const FOCUS = 'com.lineup.focus';
  const focusId = async () => (await registry.list())[0]?.id ?? FOCUS;

  it('disabling ends a running operation’s call revoked, closes the instance and keeps its data', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    advance(90_000);
    expect(await registry.setEnabled(await focusId(), false)).toBe(true);
    expect(await runtime.withdraw()).toBe(1);
    expect((await finalOf('c1'))?.payload).toMatchObject({ outcome: 'error', error: { code: 'revoked' } });
    expect(host.calls).toEqual(['foreground focus', 'close focus']);
    const [operation] = await db.getAll('operations');
    expect(operation).toMatchObject({ status: 'interrupted', endedAt: START + 90_000 });
    expect(operation).not.toHaveProperty('dueAt');
    const [instance] = await db.getAll('instances');
    expect(instance).toMatchObject({ state: 'closed', foreground: false });
    // The data stays (enabled again, the app shows the focus ended), and nothing falls due any more.
    expect(host.snapshots.at(-1)?.data).toMatchObject({
      operation: { status: 'interrupted', focused_seconds: 90 },
    });
    expect(await runtime.nextDueAt()).toBeUndefined();
    // Again: nothing more to end; one final result each.
    expect(await runtime.withdraw()).toBe(0);
    expect((await answers()).filter((answer) => answer.startsWith('c1 revoked'))).toHaveLength(1);
  });

  it('a start still waiting for the foreground and the calls queued on it end revoked', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await registry.setEnabled(await focusId(), false);
    expect(await runtime.withdraw()).toBe(1);
    expect((await finalOf('c1'))?.payload).toMatchObject({ outcome: 'error', error: { code: 'revoked' } });
    const [activation] = await db.getAll('activations');
    expect(activation).toMatchObject({ status: 'cancelled' });
    expect(await runtime.nextDueAt()).toBeUndefined();
  });

  it('a call against the withdrawn tool afterwards is unsupported at the new revision, stale at the old', async () => {
    await registry.setEnabled(await focusId(), false);
    await runtime.withdraw();
    const latest = (await registry.inventory()).revision;
    const stale = await runtime.receive(CONVERSATION, toolCall('c2', 'focus.start', { minutes: 5 }));
    expect(stale.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'stale_inventory' } });
    const fresh = await runtime.receive(CONVERSATION, {
      ...toolCall('c3', 'focus.start', { minutes: 5 }),
      inventory_revision: latest,
    });
    expect(fresh.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'unsupported' } });
    expect(host.calls).toEqual([]);
  });

  it('an enabled app is left alone, and recover withdraws what a crash left behind', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'focus.start', { minutes: 20 }));
    await runtime.confirmForeground(CONVERSATION, 'focus');
    expect(await runtime.withdraw()).toBe(0);
    expect((await finalOf('c1'))?.payload).toMatchObject({ status: 'started' });
    // Uninstalled, and the page closed before the host could withdraw: the next start-up does it.
    await registry.uninstall(await focusId());
    const restarted = newRuntime();
    await restarted.recover();
    expect((await finalOf('c1'))?.payload).toMatchObject({ outcome: 'error', error: { code: 'revoked' } });
    expect(await db.getAll('session_data')).toEqual([]);
  });
});
