/**
 * The MCP conformance suite's client scenarios (`@modelcontextprotocol/conformance`, pinned) against LineUp's own MCP
 * client as built: `conformance/client.mjs` reads each scenario's server as an install would and calls its tools
 * through the runtime's tool caller. What does not pass yet is listed, with why, in `conformance/expected-failures.yml`;
 * the suite fails on any other failure, and on a listed scenario that passes. Needs the package built (`dist/`): the
 * repository's test command builds first.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..', '..');
const client = join(packageRoot, 'conformance', 'client.mjs');
const baseline = join(packageRoot, 'conformance', 'expected-failures.yml');
const require = createRequire(import.meta.url);
const cli = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
const output = mkdtempSync(join(tmpdir(), 'lineup-conformance-'));

afterAll(() => rmSync(output, { recursive: true, force: true }));

/** Runs the suite's client mode with `command` as the client; its exit code and everything it printed. */
function conformance(args: readonly string[]): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'client', ...args, '--output-dir', output], {
      cwd: packageRoot,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.stderr.on('data', (chunk) => {
      text += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, text }));
  });
}

/**
 * The scenarios the run passed (with how many of their checks passed) and failed, from its summary lines
 * (`✓ name: 1 passed, 0 failed`, `✗ name: …`).
 */
function outcomes(text: string) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the terminal's colour codes is the point.
  const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = [...plain.matchAll(/^([✓✗]) (\S+): (\d+) passed, \d+ failed/gm)];
  return {
    passed: Object.fromEntries(
      lines.filter((line) => line[1] === '✓').map((line) => [line[2], Number(line[3])]),
    ) as Record<string, number>,
    failed: lines.filter((line) => line[1] === '✗').map((line) => line[2] as string),
  };
}

/** The checks of the newest run of `scenario` saved in the output folder, by id. */
function checksOf(scenario: string): Map<string, string> {
  const runs = readdirSync(output)
    .filter((name) => name.startsWith(`${scenario}-`))
    .sort();
  const newest = runs.at(-1);
  if (newest === undefined) return new Map();
  const checks = JSON.parse(readFileSync(join(output, newest, 'checks.json'), 'utf8')) as {
    id: string;
    status: string;
  }[];
  return new Map(checks.map((check) => [check.id, check.status]));
}

/** Whether `scenario`, run by itself, passes every check it makes (up to three tries). */
async function passesAlone(scenario: string): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const alone = await conformance([
      '--command',
      `node ${client}`,
      '--scenario',
      scenario,
      '--timeout',
      '20000',
    ]);
    const judged = [...checksOf(scenario).values()].filter((status) => status !== 'INFO');
    if (alone.code === 0 && judged.length > 0 && judged.every((status) => status === 'SUCCESS')) return true;
  }
  return false;
}

describe('the MCP conformance suite, client scenarios, against LineUp’s MCP client', () => {
  it('is run against the built client', () => {
    expect(existsSync(join(packageRoot, 'dist', 'mcp', 'index.js')), 'build @lineup/runtime first').toBe(
      true,
    );
  });

  it('passes every client scenario but those listed with their reason, and lists none that passes', async () => {
    const { code, text } = await conformance([
      '--command',
      `node ${client}`,
      '--suite',
      'all',
      '--expected-failures',
      baseline,
      '--timeout',
      '20000',
    ]);
    const { passed, failed } = outcomes(text);
    const expected = [...readFileSync(baseline, 'utf8').matchAll(/^ {2}- (\S+)$/gm)].map((match) => match[1]);
    // `sse-retry` times the client: it must reconnect 450–700 ms after the server closed the call's stream, with the
    // last event id. Its server answers the call on whichever GET stream comes next, and under load (the suite runs
    // its scenarios in parallel, beside the other test files, on two cores) the client's standing GET stream can
    // arrive only after that close: the call is answered there, early and with no event id, and the scenario fails
    // what the client never got to do. So a failure of it in the parallel run is judged again, the scenario alone,
    // where every check must pass.
    const retimed = failed.includes('sse-retry') && (await passesAlone('sse-retry'));
    if (retimed) {
      console.warn('conformance: sse-retry failed in the parallel run and passed every check run alone');
      passed['sse-retry'] = 1;
    }
    const failedAgain = retimed ? failed.filter((scenario) => scenario !== 'sse-retry') : failed;
    // Each passed on checks it made (a scenario whose server saw nothing passes with 0 checks: not here).
    // A failure shows the end of the suite's output: which scenario failed, and how.
    for (const scenario of [
      'initialize',
      'tools_call',
      'sse-retry',
      'auth/metadata-default',
      'auth/pre-registration',
      'auth/token-endpoint-auth-none',
      'auth/2025-03-26-oauth-metadata-backcompat',
      'auth/resource-mismatch',
    ])
      expect(passed[scenario] ?? 0, `${scenario}\n${text.slice(-2_000)}`).toBeGreaterThan(0);
    expect(failedAgain.sort(), text.slice(-2_000)).toEqual(expected.sort());
    expect(retimed || code === 0, text.slice(-2_000)).toBe(true);
  }, 180_000);

  it('fails a client that never calls the tool, and makes no check of one that never connects (the controls)', async () => {
    const silent = `node -e "process.exit(0)"`;
    const call = await conformance(['--command', silent, '--scenario', 'tools_call', '--timeout', '10000']);
    expect(call.text).toMatch(/Passed: 0\/1, 1 failed/);
    expect(call.text).toMatch(/OVERALL: FAILED/);
    // The suite's initialize scenario passes a client that never connected, with no check: hence `passed > 0` above.
    const initialize = await conformance([
      '--command',
      silent,
      '--scenario',
      'initialize',
      '--timeout',
      '10000',
    ]);
    expect(initialize.text).toMatch(/Passed: 0\/0/);
  }, 60_000);
});
