import type { Page } from '@playwright/test';
import { expect, shownConversation, test } from './fixtures.ts';
import { type StrictCspServer, serveWithPolicy } from './strict-csp-server.ts';

/**
 * The built Web Reference Host under a Content Security Policy without `'unsafe-eval'`, in Chromium: the
 * runtime validates Agent Tool arguments and results with an interpreter, so nothing it does evaluates code
 * (with AJV, which compiles schemas with `new Function`, a valid call was refused `invalid_arguments` here).
 *
 * Two policies. The host page alone runs under `script-src 'self'`. Its Surfaces and MiniApp pages are `srcdoc`
 * frames, which inherit the policy of the page that holds them on top of their own: they need inline scripts
 * (a Surface's nonce'd prelude: the host's header cannot know the frame's nonce) and `data:` scripts and styles
 * (a MiniApp page built from its kept files), so a host that shows them must allow those — and still not
 * `'unsafe-eval'`.
 *
 * Every violation of the host's policy, in the page and in its frames (which inherit it), fails the test. That
 * includes zod's feature probe, a caught `new Function("")` that each zod object schema triggers once per
 * document unless zod is `jitless`: the host (`src/zod-config.ts`) and Pomodoro's page set it before any schema
 * is built, so neither reports it. Under the host-only policy the srcdoc frames are refused their inline
 * content, and only that. Checked: against a build of the host with AJV both CSP tests fail; without the host's
 * `jitless` both fail on the probe's violation (sample `(function anonymous(\n) {\n\n})`); and the tab test
 * fails against a runtime whose connection did not close itself on `versionchange`.
 *
 * It serves the built host (`dist`, as `vite preview` does) from its own server with the policy as a header
 * (strict-csp-server.ts).
 */

const COMMON =
  "default-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** The host page alone: its own scripts and styles only. */
const HOST_ONLY_POLICY = `${COMMON}; script-src 'self' 'report-sample'; style-src 'self'; img-src 'self' data:`;
/** With Surfaces and MiniApp pages (inherited by their srcdoc frames): inline and data: — never eval. */
const WITH_FRAMES_POLICY = `${COMMON}; script-src 'self' 'unsafe-inline' data: 'report-sample'; style-src 'self' 'unsafe-inline' data:; img-src 'self' data: blob:; font-src 'self' data:`;

interface Violation {
  readonly frame: string;
  readonly directive: string;
  readonly blockedURI: string;
  readonly sample: string;
  readonly policy: string;
}

/** Collects every CSP violation of the page and its frames (reported through a binding the frames share). */
async function watchViolations(page: Page): Promise<Violation[]> {
  const violations: Violation[] = [];
  await page.exposeBinding('__lineupReportViolation', ({ frame }, violation: Omit<Violation, 'frame'>) => {
    violations.push({ frame: frame.url(), ...violation });
  });
  await page.addInitScript(() => {
    const report = (window as unknown as Record<string, (violation: unknown) => void>)
      .__lineupReportViolation;
    document.addEventListener('securitypolicyviolation', (event) =>
      report?.({
        directive: event.effectiveDirective,
        blockedURI: event.blockedURI,
        sample: event.sample,
        policy: event.originalPolicy,
      }),
    );
  });
  return violations;
}

/**
 * The violations of the host's `policy`. A frame's own policy (a Surface's, a MiniApp page's) is its business; the
 * host's policy is inherited by every frame, and carries `'report-sample'`, so any evaluation anywhere on the page
 * is reported against it with its first characters. With `framesInline`, a frame may be refused inline content
 * (what the host-only policy does to its srcdoc frames), and nothing else.
 */
function unexpected(violations: readonly Violation[], policy: string, framesInline = false): Violation[] {
  return violations.filter(
    (violation) =>
      violation.policy === policy &&
      !(
        framesInline &&
        violation.frame.startsWith('about:srcdoc') &&
        violation.blockedURI === 'inline' &&
        ['script-src-elem', 'style-src-elem', 'style-src-attr'].includes(violation.directive)
      ),
  );
}

let sequence = 0;

/** Delivers an agent `tool.call` through the host's message box, as the agent transport would. */
async function callTool(page: Page, callId: string, tool: string, args: object) {
  await page.getByLabel('Document or lineup.v1 message (JSON)').fill(
    JSON.stringify({
      v: 1,
      id: `msg_csp_${++sequence}`,
      type: 'lineup.v1.tool.call',
      conversation_id: await shownConversation(page),
      sender: { kind: 'agent', id: 'agent_e2e' },
      payload: { call_id: callId, inventory_revision: 'inventory-2', tool, arguments: args },
    }),
  );
  await page.getByRole('button', { name: 'Deliver' }).click();
}

/** What the client sent the agent about `callId`: progress statuses, then the final result (or its error code). */
async function sentAbout(page: Page, callId: string): Promise<string[]> {
  const texts = await page.locator('.host__note--to-agent code').allTextContents();
  return texts.flatMap((text) => {
    const match = /^lineup\.v1\.tool\.(progress|result) (.*)$/.exec(text);
    if (match === null) return [];
    const payload = JSON.parse(match[2] as string) as {
      call_id: string;
      status?: string;
      outcome?: string;
      result?: unknown;
      error?: { code: string };
    };
    if (payload.call_id !== callId) return [];
    if (match[1] === 'progress') return [payload.status as string];
    return [
      payload.outcome === 'completed' ? JSON.stringify(payload.result) : `error ${payload.error?.code}`,
    ];
  });
}

async function openHost(page: Page, server: StrictCspServer) {
  await page.goto(server.url);
  await expect(page.getByText('Inventory published to agents: inventory-2, 2 Agent Tools')).toBeVisible();
}

let hostOnly: StrictCspServer;
let withFrames: StrictCspServer;
test.beforeAll(async () => {
  hostOnly = await serveWithPolicy(HOST_ONLY_POLICY);
  withFrames = await serveWithPolicy(WITH_FRAMES_POLICY);
});
test.afterAll(async () => {
  await hostOnly.close();
  await withFrames.close();
});

test.describe('a strict CSP without unsafe-eval', () => {
  test.describe("script-src 'self'", () => {
    // The host's srcdoc frames (a pre-warmed Surface frame) inherit this policy and are refused their inline
    // prelude, which Chromium logs; nothing else may be.
    test.use({
      allowedConsoleErrors: /^(Executing inline script|Applying inline style) violates .* \(about:srcdoc\)$/,
    });
    test('tool arguments and results are validated, a bad call is refused by its schema', async ({
      page,
    }) => {
      const violations = await watchViolations(page);
      await openHost(page, hostOnly);
      // A runtime built-in: no frame involved. Its empty arguments match the input schema, and its result is
      // checked against the output schema before it is sent.
      await callTool(page, 'call_interrupt', 'pomodoro.interrupt', {});
      await expect
        .poll(() => sentAbout(page, 'call_interrupt'))
        .toEqual(['accepted', JSON.stringify({ status: 'nothing_to_interrupt' })]);
      await callTool(page, 'call_extra', 'pomodoro.interrupt', { now: true });
      await callTool(page, 'call_bad', 'pomodoro.start', { minutes: 'twenty' });
      await expect.poll(() => sentAbout(page, 'call_extra')).toEqual(['error invalid_arguments']);
      await expect.poll(() => sentAbout(page, 'call_bad')).toEqual(['error invalid_arguments']);
      expect(unexpected(violations, HOST_ONLY_POLICY, true)).toEqual([]);
    });
  });

  test('with its frames: Pomodoro runs a validated call in its page, a Surface opens, nothing evaluates code', async ({
    page,
  }) => {
    const violations = await watchViolations(page);
    await openHost(page, withFrames);
    await callTool(page, 'call_start', 'pomodoro.start', { minutes: 25, label: 'Write the report' });
    await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting', 'started']);
    const pomodoro = page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe');
    await expect(pomodoro.locator('[data-phase]')).toHaveAttribute('data-phase', 'running');
    await expect(pomodoro.getByText('Write the report', { exact: true })).toBeVisible();
    await callTool(page, 'call_long', 'pomodoro.start', { minutes: 500 });
    await expect.poll(() => sentAbout(page, 'call_long')).toEqual(['error invalid_arguments']);
    // An inline Surface: its prelude and bundle run in the nested sandboxed frames.
    await page.getByRole('button', { name: 'Inline Surface' }).click();
    const surface = page.frameLocator('iframe[title="Weather dashboard"]').frameLocator('iframe');
    await expect(surface.locator('#city')).toHaveText('Beijing');
    expect(unexpected(violations, WITH_FRAMES_POLICY)).toEqual([]);
  });
});

test.describe('the runtime database across tabs', () => {
  test('a newer LineUp opening the database in another tab is not blocked by this one', async ({ page }) => {
    await openHost(page, withFrames);
    // The other tab, same origin: a newer runtime's open, at the next version of the database.
    const other = await page.context().newPage();
    await other.goto(`${withFrames.url}/favicon.svg`);
    const version = await other.evaluate(
      async () =>
        (await indexedDB.databases()).find((database) => database.name === 'lineup-runtime')?.version,
    );
    expect(version).toBeGreaterThan(0);
    const outcome = await other.evaluate(
      (version) =>
        new Promise<string>((resolve) => {
          const request = indexedDB.open('lineup-runtime', version + 1);
          request.onblocked = () => resolve('blocked');
          request.onerror = () => resolve(`error ${request.error?.name}`);
          request.onsuccess = () => {
            resolve(`opened at ${request.result.version}`);
            request.result.close();
          };
        }),
      version as number,
    );
    // The host's connection closed itself on `versionchange` (without it: `blocked`, and the upgrade waits for
    // ever).
    expect(outcome).toBe(`opened at ${(version as number) + 1}`);
    await other.close();
  });
});
