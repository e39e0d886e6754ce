import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMiniApp } from '@lineup/create-miniapp';
import type { Page } from '@playwright/test';
import { confirmAgentLink } from './agent-page.ts';
import { callFromConsole, serveDevApp } from './dev-app.ts';
import { expect, test } from './fixtures.ts';
import { startAgent, type TestAgent } from './test-agent.ts';

/**
 * A MiniApp author's mistakes, made while developing against the real host (`?dev=`) with a real agent connected
 * (`&agent=`): a handler that returns `{ total }` where its output schema wants `{ count }`, and calls with an
 * argument left out, of the wrong type, or not in the schema. The Agent console and the agent read the same
 * account the SDK gives in the author's tests — every refused place, its code and what the published schema wants
 * there (`count: missing_property (expected integer); total: unknown_property (not in the schema, which has:
 * count)`) — under one code for a refused result, `invalid_output`; never a value that was sent or returned.
 */

let agent: TestAgent;
let server: { close(): Promise<void> } | undefined;

test.beforeEach(async () => {
  agent = await startAgent();
});
test.afterEach(async () => {
  await server?.close();
  server = undefined;
  await agent.close();
});

/** The final result the agent got for `callId`. */
async function resultFor(callId: string) {
  await expect
    .poll(
      () => agent.received.some((e) => e.type === 'lineup.v1.tool.result' && e.payload.call_id === callId),
      {
        timeout: 30_000,
      },
    )
    .toBe(true);
  return agent.received.find((e) => e.type === 'lineup.v1.tool.result' && e.payload.call_id === callId)
    ?.payload;
}

/** The newest inventory's revision that lists `tool`. */
async function revisionWith(tool: string): Promise<string> {
  let revision = '';
  await expect
    .poll(
      () => {
        const inventory = agent.received.findLast(
          (e) =>
            e.type === 'lineup.v1.client.inventory' &&
            (e.payload.tools as { name: string }[] | undefined)?.some((entry) => entry.name === tool),
        );
        revision = String(inventory?.payload.revision ?? '');
        return revision;
      },
      { timeout: 60_000 },
    )
    .not.toBe('');
  return revision;
}

const expected = {
  output: {
    code: 'invalid_output',
    message:
      "The app's handler returned a result its output schema refuses, so nothing was delivered: count: missing_property (expected integer); total: unknown_property (not in the schema, which has: count).",
    issues: [
      { path: 'result.count', code: 'missing_property', message: 'Required: expected integer.' },
      { path: 'result.total', code: 'unknown_property', message: 'Not in the schema, which has: count.' },
    ],
  },
  missing: {
    code: 'invalid_arguments',
    message: "The arguments do not match the tool's input schema: text: missing_property (expected string).",
    issues: [
      { path: 'payload.arguments.text', code: 'missing_property', message: 'Required: expected string.' },
    ],
  },
  wrongType: {
    code: 'invalid_arguments',
    message: "The arguments do not match the tool's input schema: text: invalid_type (expected string).",
    issues: [{ path: 'payload.arguments.text', code: 'invalid_type', message: 'Expected string.' }],
  },
  extra: {
    code: 'invalid_arguments',
    message:
      "The arguments do not match the tool's input schema: extra: unknown_property (not in the schema, which has: text).",
    issues: [
      {
        path: 'payload.arguments.extra',
        code: 'unknown_property',
        message: 'Not in the schema, which has: text.',
      },
    ],
  },
};

/** The app `npm create` writes, with the handler's mistake, served by its dev server and installed by the host. */
async function openMistakes(page: Page, directory: string, withAgent: boolean): Promise<void> {
  const app = createMiniApp({ directory, appScope: 'mistakes' });
  // The mistake: the handler returns { total } where the output schema wants { count }.
  const tools = join(app.directory, 'src', 'tools.ts');
  const source = await readFile(tools, 'utf8');
  expect(source).toContain('handler: ({ text }) => ({ count: addNote(text) }),');
  await writeFile(
    tools,
    source.replace(
      'handler: ({ text }) => ({ count: addNote(text) }),',
      'handler: ({ text }) => ({ total: addNote(text) }) as never,',
    ),
  );
  const served = await serveDevApp(app.directory);
  server = served;
  const { bundle } = served;
  await page.goto(
    `/?dev=${encodeURIComponent(bundle)}${withAgent ? `&agent=${encodeURIComponent(agent.url)}` : ''}`,
  );
  if (withAgent) await confirmAgentLink(page);
  const dev = page
    .getByRole('complementary', { name: 'MiniApps' })
    .getByRole('region', { name: 'Developing a MiniApp' });
  await expect(dev.getByRole('status')).toHaveText('Installed Mistakes 0.1.0.', { timeout: 60_000 });
}

test('each mistake reaches the agent naming the field and what the schema wants, never a value', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openMistakes(page, testInfo.outputPath('mistakes'), true);
  const revision = await revisionWith('mistakes.add');
  const sent: [string, object, keyof typeof expected][] = [
    ['call_mistake_output', { text: 'Buy milk' }, 'output'],
    ['call_mistake_missing', {}, 'missing'],
    ['call_mistake_type', { text: 5 }, 'wrongType'],
    ['call_mistake_extra', { text: 'a', extra: 'the user secret' }, 'extra'],
  ];
  for (const [callId, args, mistake] of sent) {
    agent.send('lineup.v1.tool.call', {
      call_id: callId,
      inventory_revision: revision,
      tool: 'mistakes.add',
      arguments: args,
    });
    const payload = await resultFor(callId);
    expect([mistake, payload]).toEqual([
      mistake,
      { call_id: callId, outcome: 'error', error: expected[mistake] },
    ]);
  }
  expect(JSON.stringify(agent.received)).not.toContain('the user secret');
});

test('each mistake shows in the Agent console naming the field and what the schema wants', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openMistakes(page, testInfo.outputPath('mistakes'), false);
  const region = page.getByRole('region', { name: 'Agent console' });
  await region.getByRole('button', { name: 'Show' }).click();
  await region.getByLabel('Agent Tool', { exact: true }).selectOption('mistakes.add');
  await region.getByRole('checkbox', { name: 'Edit the arguments as JSON' }).check();
  // The handler's mistake: the runtime's account, as the agent reads it.
  const item = await callFromConsole(page, 'mistakes.add', { json: '{"text":"Call mom"}' }, 'error');
  await expect(item).toContainText(`${expected.output.code} — ${expected.output.message}`);
  // The arguments' mistakes are caught before anything is sent, naming the field the same way.
  const refusal = region.getByRole('alert');
  for (const [json, said] of [
    ['{}', '“text” is required.'],
    ['{"text":5}', '“text” must be of type string.'],
    ['{"text":"a","extra":1}', '“extra” is not a parameter of this tool, and the schema allows no other.'],
  ] as const) {
    await region.getByRole('textbox', { name: 'Arguments (JSON object)' }).fill(json);
    await region.getByRole('button', { name: 'Call tool' }).click();
    await expect(refusal).toContainText(said);
  }
  await region.screenshot({ path: 'test-results/author-mistakes-console-en.png' });
});
