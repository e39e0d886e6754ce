/**
 * What the tests of an MCP server as an app of the runtime (`src/mcp/mcp-apps.*.test.ts`) share: the Clock Server
 * (a server of the official SDK), a database with a registry whose rules allow every MCP tool, an agent's call, and
 * the final result recorded for a call.
 */
import type { ToolCallPayload } from '@lineup/shared/protocol';
import { z } from 'zod';
import { AppRegistry } from '../src/apps/registry.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../src/storage/database.js';
import type { Clock } from '../src/time/clock.js';
import { sdkServer } from './mcp-servers.js';

export const CONVERSATION = 'conv_1';
export const VIEW = '<!doctype html><p>clock</p>';

/** A server with a read-only tool that has a view, a tool with an output schema, and a tool only the view calls. */
export function clockServer(extra: { failAdd?: boolean } = {}) {
  return sdkServer({
    name: 'Clock Server',
    tools: [
      {
        name: 'get-time',
        description: 'Returns the time.',
        annotations: { readOnlyHint: true },
        _meta: { ui: { resourceUri: 'ui://clock/view.html' } },
        run: () => ({ content: [{ type: 'text', text: '08:00' }] }),
      },
      {
        name: 'add',
        description: 'Adds two numbers.',
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        outputSchema: z.object({ sum: z.number() }),
        run: (args) =>
          extra.failAdd === true
            ? { content: [{ type: 'text', text: 'cannot add today' }], isError: true }
            : {
                content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }],
                structuredContent: { sum: Number(args.a) + Number(args.b) },
              },
      },
      {
        name: 'tick',
        description: 'Only the view calls it.',
        _meta: { ui: { visibility: ['app'] } },
        run: () => ({ content: [] }),
      },
    ],
    resources: [{ uri: 'ui://clock/view.html', text: VIEW }],
  });
}

let databases = 0;
/**
 * This module is evaluated again for each test file that imports it, while the files of a worker share one
 * fake-indexeddb (the runtime's tests run with \`isolate: false\`): the counter starts at 0 each time, so names carry a
 * token of their own evaluation.
 */
const RUN = crypto.randomUUID().slice(0, 8);

/**
 * A new database (its name unique among the test files that import this: they share fake-indexeddb) and a registry
 * on it that reads the time from `clock`.
 */
export async function openMcpApps(clock: Clock) {
  const db = await openRuntimeDatabase(`mcp-apps-${RUN}-${databases++}`);
  // These tests are about the mcp executor: the host's rules allow every MCP tool (consent/tool-consent.test.ts and
  // consent/pipeline.test.ts test the consent step, and a call that asks).
  const registry = new AppRegistry(db, {
    clock,
    toolPolicy: [{ tools: '*', kind: 'mcp_server', decision: 'allow' }],
  });
  return { db, registry };
}

/** The payload of an agent's call of `tool`, against inventory revision `inventory-1`. */
export const call = (callId: string, tool: string, args: ToolCallPayload['arguments'] = {}) => ({
  call_id: callId,
  inventory_revision: 'inventory-1',
  tool,
  arguments: args,
});

/** `finalOf` (the final result recorded for a call, if any) and `settled` (waits for it), on the database `db()`. */
export function finalResults(db: () => RuntimeDatabase) {
  async function finalOf(callId: string) {
    const record = await db().get('tool_calls', `${CONVERSATION}\n${callId}`);
    return record?.latest.type === 'lineup.v1.tool.result' ? record.latest.payload : undefined;
  }

  async function settled(callId: string) {
    for (let attempt = 0; attempt < 200; attempt++) {
      const final = await finalOf(callId);
      if (final !== undefined) return final;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`${callId} never finished`);
  }

  return { finalOf, settled };
}
