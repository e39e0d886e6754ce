/**
 * The crash matrix (DESIGN.md "Persistence": a reload mid-flow neither loses nor repeats a step): the focus
 * story is cut at every step boundary — the page closes, the database connection goes, a new runtime opens
 * over the same database and recovers — and must end exactly as an uninterrupted run does: every call with
 * exactly one final result, one operation at most, no outbox row lost or written twice.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { focusManifest } from '../../test/manifests.js';
import { toolCall } from '../../test/utils.js';
import { AppRegistry } from '../apps/registry.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { ToolCallIntake } from '../tools/intake.js';
import { ToolRuntime } from './tool-runtime.js';

const START = Date.parse('2026-12-01T08:00:00.000Z');
const CONVERSATION = 'conv_1';

/** One page of the host: a database connection and a runtime over it, on the shared clock. */
class Page {
  static #ids = 0;
  db!: RuntimeDatabase;
  registry!: AppRegistry;
  runtime!: ToolRuntime;

  constructor(
    readonly name: string,
    readonly clock: { now: number },
  ) {}

  async open(): Promise<this> {
    this.db = await openRuntimeDatabase(this.name);
    const clock = { now: () => this.clock.now };
    this.registry = new AppRegistry(this.db, { clock });
    this.runtime = new ToolRuntime(this.db, this.registry, { clock, ids: () => `id_${++Page.#ids}` });
    await this.runtime.recover();
    return this;
  }

  close(): void {
    this.db.close();
  }
}

/** The steps of the story; a crash may come after any of them. */
const STEPS: readonly ((page: Page) => Promise<unknown>)[] = [
  (page) => page.registry.install(focusManifest(), { bundleUrl: '/apps/focus/' }),
  (page) => page.runtime.receive(CONVERSATION, toolCall('start', 'focus.start', { minutes: 20 })),
  (page) => page.runtime.receive(CONVERSATION, toolCall('peek', 'focus.peek')),
  (page) => page.runtime.confirmForeground(CONVERSATION, 'focus'),
  async (page) => {
    page.clock.now += 5 * 60_000;
    return page.runtime.receive(CONVERSATION, toolCall('start', 'focus.start', { minutes: 20 }));
  },
  async (page) => {
    page.clock.now += 20 * 60_000;
    return page.runtime.settle();
  },
  (page) => page.runtime.receive(CONVERSATION, toolCall('stop', 'focus.interrupt')),
];

async function outcome(page: Page) {
  const outbox = await page.db.getAll('outbox');
  const tools = outbox.filter((row) => row.type !== 'lineup.v1.client.inventory');
  return {
    answers: tools.map((row) =>
      row.type === 'lineup.v1.tool.result'
        ? `${row.payload.call_id} ${row.payload.outcome === 'completed' ? JSON.stringify(row.payload.result) : row.payload.error?.code}`
        : `${row.payload.call_id} ${row.payload.status}`,
    ),
    operations: (await page.db.getAll('operations')).map((operation) => operation.status),
  };
}

/**
 * Runs the story, reloading after step `crashAfter`. With `intakeOnly`, the start call is only taken in by
 * the intake (committed, not yet routed) and the page reloads right then: the crash between steps 3 and 4 of
 * the pipeline.
 */
async function run(crashAfter: number | null, name: string, intakeOnly = false) {
  const clock = { now: START };
  let page = await new Page(name, clock).open();
  for (let index = 0; index < STEPS.length; index++) {
    if (intakeOnly && index === 1) {
      await new ToolCallIntake(page.db, page.registry, { clock: { now: () => clock.now } }).receive(
        CONVERSATION,
        toolCall('start', 'focus.start', { minutes: 20 }),
      );
      page.close();
      page = await new Page(name, clock).open();
      continue;
    }
    await STEPS[index]!(page);
    if (index === crashAfter) {
      page.close();
      page = await new Page(name, clock).open();
    }
  }
  const result = await outcome(page);
  page.close();
  return result;
}

describe('a reload between any two steps changes nothing', () => {
  let reference: Awaited<ReturnType<typeof run>>;

  it('the uninterrupted run', async () => {
    reference = await run(null, 'crash-reference');
    expect(reference.answers).toEqual([
      'start accepted',
      'start starting',
      'peek accepted',
      'start started',
      'peek execution_failed',
      'start {"status":"completed","minutes":20,"started_at":"2026-12-01T08:00:00.000Z","ended_at":"2026-12-01T08:20:00.000Z"}',
      'stop accepted',
      'stop {"status":"nothing_to_interrupt"}',
    ]);
    expect(reference.operations).toEqual(['completed']);
  });

  it('a reload between the intake commit and the routing of a call', async () => {
    expect(await run(null, 'crash-in-pipeline', true)).toEqual(reference);
  });

  it.each(STEPS.map((_, index) => [index]))('a reload after step %i', async (index) => {
    const result = await run(index, `crash-after-${index}`);
    expect(result).toEqual(reference);
    const finals = result.answers.filter((answer) => !/ (accepted|starting|started)$/.test(answer));
    expect(finals.map((answer) => answer.split(' ')[0]).sort()).toEqual(['peek', 'start', 'stop']);
  });
});
