/**
 * What the tests of the capability runtime (`src/capabilities/capability-runtime.*.test.ts`) share: the declared
 * capabilities (one of each risk), a runtime with an injectable clock and a scripted user, an `app.call`, and the
 * results waiting in the outbox.
 */
import type { AppCallPayload, AppResultPayload } from '@lineup/shared/protocol';
import { expect } from 'vitest';
import { AppRegistry, type CapabilityDeclaration } from '../src/apps/registry.js';
import {
  type CapabilityHandler,
  CapabilityRuntime,
  type ConsentDecision,
  type ConsentRequest,
} from '../src/capabilities/capability-runtime.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../src/storage/database.js';

export const T0 = Date.parse('2026-12-01T10:00:00Z');
export const CONVERSATION = 'conv_cap';
let databases = 0;
/**
 * This module is evaluated again for each test file that imports it, while the files of a worker share one
 * fake-indexeddb (the runtime's tests run with \`isolate: false\`): the counter starts at 0 each time, so names carry a
 * token of their own evaluation.
 */
const RUN = crypto.randomUUID().slice(0, 8);

function clock(start = T0) {
  let now = start;
  return {
    now: () => now,
    set: (value: number) => {
      now = value;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const objectSchema = (properties: object, required: string[] = []) =>
  ({
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  }) as CapabilityDeclaration['input_schema'];

/** The capabilities the host declares: one of each risk. */
export const DECLARATIONS: CapabilityDeclaration[] = [
  {
    name: 'app.open_url',
    version: '1.0',
    risk: 'user_confirmation',
    description: 'Opens a web page in a new tab.',
    input_schema: objectSchema({ url: { type: 'string', pattern: '^https?://' } }, ['url']),
    output_schema: objectSchema({ opened: { type: 'boolean' } }, ['opened']),
  },
  {
    name: 'status.show',
    version: '1.0',
    risk: 'display_only',
    description: 'Shows a status line.',
    input_schema: objectSchema({ text: { type: 'string' } }, ['text']),
    output_schema: objectSchema({ shown: { type: 'boolean' } }, ['shown']),
  },
  {
    name: 'device.pick_file',
    version: '1.0',
    risk: 'system_permission',
    description: 'Lets you pick a file to read.',
    input_schema: objectSchema({}),
    output_schema: objectSchema({ name: { type: 'string' } }, ['name']),
  },
  {
    name: 'account.delete',
    version: '1.0',
    risk: 'restricted',
    description: 'Deletes the account.',
    input_schema: objectSchema({}),
    output_schema: objectSchema({ deleted: { type: 'boolean' } }, ['deleted']),
  },
];

export interface Setup {
  readonly db: RuntimeDatabase;
  readonly registry: AppRegistry;
  readonly time: ReturnType<typeof clock>;
  readonly asked: ConsentRequest[];
  readonly ran: string[];
  answer: (request: ConsentRequest) => Promise<ConsentDecision> | ConsentDecision;
  readonly runtime: CapabilityRuntime;
  readonly handlers: Record<string, CapabilityHandler>;
  /** A new runtime on the same database, like a page reload. */
  reload(): CapabilityRuntime;
}

/**
 * A runtime on a new database (its name unique among the test files that import this: they share
 * fake-indexeddb), with a scripted user who allows unless `answer` says otherwise.
 */
export async function setUp(): Promise<Setup> {
  const db = await openRuntimeDatabase(`capabilities-${RUN}-${databases++}`);
  const time = clock();
  const registry = new AppRegistry(db, { clock: time });
  await registry.declareCapabilities(DECLARATIONS);
  const asked: ConsentRequest[] = [];
  const ran: string[] = [];
  const handlers: Record<string, CapabilityHandler> = {
    'app.open_url': (args) => {
      ran.push(`open ${String(args.url)}`);
      return { opened: true };
    },
    'status.show': (args) => {
      ran.push(`status ${String(args.text)}`);
      return { shown: true };
    },
    'device.pick_file': () => {
      ran.push('pick');
      return { name: 'notes.txt' };
    },
    'account.delete': () => {
      ran.push('delete');
      return { deleted: true };
    },
  };
  const setup: Setup = {
    db,
    registry,
    time,
    asked,
    ran,
    answer: () => ({ decision: 'allow' }),
    handlers,
    runtime: undefined as unknown as CapabilityRuntime,
    reload: () =>
      new CapabilityRuntime(db, {
        handlers,
        clock: time,
        confirm: async (request) => {
          asked.push(request);
          return setup.answer(request);
        },
      }),
  };
  (setup as { runtime: CapabilityRuntime }).runtime = setup.reload();
  return setup;
}

let calls = 0;
/** An `app.call` of `capability`, a new call_id each time, that expires a minute after T0. */
export function call(
  capability: string,
  args: object,
  overrides: Partial<AppCallPayload> = {},
): AppCallPayload {
  return {
    call_id: `call_${++calls}`,
    capability,
    reason: 'Open the deployment docs for you to check',
    expires_at: new Date(T0 + 60_000).toISOString(),
    arguments: args as AppCallPayload['arguments'],
    ...overrides,
  };
}

/** Receives a new call and waits for its result. */
export async function settle(
  runtime: CapabilityRuntime,
  payload: AppCallPayload,
  conversation = CONVERSATION,
) {
  const received = await runtime.receive(conversation, payload);
  expect(received.disposition).toBe('new');
  return (await received.settled) as AppResultPayload;
}

/** The `app.result` rows of the outbox not delivered yet. */
export const pendingResults = async (db: RuntimeDatabase) =>
  (await db.getAllFromIndex('outbox', 'by_pending', 1))
    .filter((row) => row.type === 'lineup.v1.app.result')
    .map((row) => row.payload as AppResultPayload);
