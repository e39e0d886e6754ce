/**
 * A received call's record is written once, in the state its step left it in, whatever the step did with it; and
 * what the step read of it on the way (a held record) is what a read of the store would have returned.
 */
import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import { countRequests } from '../../test/idb-requests.js';
import { focusManifest } from '../../test/manifests.js';
import { toolCall } from '../../test/utils.js';
import { AppRegistry } from '../apps/registry.js';
import { openRuntimeDatabase } from '../storage/database.js';
import { ToolRuntime } from './tool-runtime.js';

const CONVERSATION = 'conv_records';

/** The writes of call records while `body` runs. */
const callWrites = (body: () => Promise<unknown>) =>
  countRequests((request) => request === 'tool_calls.put' || request === 'tool_calls.add', body);

it.each([
  ['a command that finishes in its step', 'focus.interrupt', {}, 'finished'],
  ['a call that starts its app and waits for the foreground', 'focus.start', { minutes: 25 }, 'waiting'],
  ['a refused call', 'focus.start', { minutes: 0 }, 'finished'],
  ['a call of a tool no app has', 'focus.nothing', {}, 'finished'],
] as const)('%s: its record is written once, in its last state', async (_, tool, args, stage) => {
  const db = await openRuntimeDatabase(`step-records-${tool}-${stage}-${JSON.stringify(args)}`);
  const registry = new AppRegistry(db);
  await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
  const runtime = new ToolRuntime(db, registry);
  expect(await callWrites(() => runtime.receive(CONVERSATION, toolCall('c1', tool, args)))).toBe(1);
  expect(await db.get('tool_calls', `${CONVERSATION}\nc1`)).toMatchObject({ stage });
  // A replay writes nothing and answers as the record says.
  expect(await callWrites(() => runtime.receive(CONVERSATION, toolCall('c1', tool, args)))).toBe(0);
  db.close();
});
