import { ATTACKS, type Attack } from './attacks.ts';
import { call, expect, test } from './fixtures.ts';
import type { Recorder } from './recorder.ts';

/**
 * Every way out a hostile Surface was found to have, mounted through the built `@lineup/surface-host` in
 * Chromium with a recording server counting HTTP requests, WebSocket upgrades, TCP connections (also those
 * with no data: a preconnect) and UDP packets. Each attack must leave nothing on the network; the controls
 * run the same attacks without the containment and must be seen by the recorder, so the suite can fail.
 */

const PROBE_HTML = '<main id="m">probe</main>';
/** Stray connections of an attack arrive within milliseconds; this is the margin after it finished. */
const SETTLE_MS = 400;

/**
 * `@parallel`: an attack whose outcome does not depend on how fast the host page answers (CSP, the sandbox, the
 * containment's own hooks), run beside another worker. A navigation is held only while the host answers within the
 * hold (the README's residual risk), so those run alone: the config's `hold` project, one worker.
 */
const holdTag = (attack: Attack) => (attack.kind === 'navigation' || attack.tearsDown ? [] : ['@parallel']);

function leaked(recorder: Recorder) {
  const traffic = recorder.traffic();
  return traffic.connections + traffic.httpRequests + traffic.webSockets + traffic.udpPackets;
}

/**
 * The attacks an MCP App view runs too (its document is every Surface's; what differs is its scripts, run as
 * modules, and its `window.parent`): one or more of each kind, and every one that a module or the replaced parent
 * could change.
 */
const VIEW_ATTACKS = new Set([
  'fetch',
  'WebSocket',
  'dynamic import',
  'image',
  'link preconnect in markup',
  'TURN over UDP',
  'a nested srcdoc with its own script',
  'location.href',
  'navigation as the first statement, before any load',
  'top and parent location',
  "the host's other frames and their Surface documents",
  'a flood of window messages to the host, then navigations',
  'a form submission',
  'createElement iframe',
  'iframe through innerHTML',
  'iframe through a Trusted Types policy of its own',
  'an agent script element',
  'eval and Function',
  'a worker from a blob',
]);

const what = (mode: string) =>
  mode.startsWith('view') ? 'MCP App view' : mode === 'page' ? 'MiniApp page' : 'Surface';

for (const mode of ['warm', 'pool', 'cold', 'reference', 'view', 'view-ahead', 'page'] as const)
  test.describe(`a contained ${what(mode)} lets nothing out (${mode} frame)`, () => {
    test.use({ harnessMode: mode });
    // A MiniApp page runs its scripts as modules and has a replaced parent, as a view does: the same attacks.
    for (const attack of mode.startsWith('view') || mode === 'page'
      ? ATTACKS.filter((attack) => VIEW_ATTACKS.has(attack.name))
      : ATTACKS) {
      test(`${attack.kind}: ${attack.name}`, { tag: holdTag(attack) }, async ({
        harnessPage: page,
        recorder,
      }) => {
        await call(
          page,
          'mount',
          'probe',
          {
            html: attack.html ?? PROBE_HTML,
            css: recorder.fill(attack.css ?? ''),
            js: recorder.fill(attack.js),
          },
          { secret: 'host-given state' },
        );
        // warm and pool: the bundle went to a frame whose containment had run before the mount. A MiniApp page
        // always gets a frame loaded for it.
        expect(await call(page, 'wasWarm', 'probe')).toBe(mode !== 'cold' && mode !== 'page');
        if (attack.tearsDown) {
          // Generous: a flood attack keeps the host page's queue busy long after the Surface is gone.
          await expect.poll(() => call(page, 'isMounted', 'probe'), { timeout: 30_000 }).toBe(false);
          expect(await call(page, 'rejections', 'probe')).toContainEqual({
            reason: attack.removal ?? 'navigated',
          });
          // A view removed while still prepared leaves no hidden holder behind.
          if (mode === 'view-ahead') expect(await call(page, 'preparedHolders')).toBe(0);
        } else {
          await expect
            .poll(() => call(page, 'events', 'probe'))
            .toContainEqual(expect.objectContaining({ event: 'done' }));
          expect(await call(page, 'isMounted', 'probe')).toBe(true);
        }
        await page.waitForTimeout(SETTLE_MS);
        expect(recorder.traffic(), 'traffic that reached the recording server').toMatchObject({
          connections: 0,
          httpRequests: 0,
          webSockets: 0,
          udpPackets: 0,
        });
      });
    }
  });

test.describe('controls: the same attacks get out without the containment', () => {
  const controls = ATTACKS.filter((attack) => attack.control);
  const mountControl = (
    page: Parameters<typeof call>[0],
    recorder: Recorder,
    attack: Attack,
    level: 'plain' | 'seed',
  ) =>
    call(
      page,
      'mountControl',
      'control',
      { html: attack.html ?? PROBE_HTML, js: recorder.fill(attack.js) },
      level,
    );

  for (const attack of controls) {
    test(`uncontained frame: ${attack.name}`, { tag: '@parallel' }, async ({
      harnessPage: page,
      recorder,
    }) => {
      await mountControl(page, recorder, attack, 'plain');
      await expect.poll(() => leaked(recorder), { message: 'the recorder saw the leak' }).toBeGreaterThan(0);
    });
  }

  // The seed's sandbox and CSP alone: what the containment adds is needed for each of these.
  for (const name of [
    'TURN over UDP',
    'TURN over TCP',
    'location.href',
    'createElement iframe',
    'link preconnect',
  ]) {
    test(`sandbox and seed CSP only: ${name}`, { tag: '@parallel' }, async ({
      harnessPage: page,
      recorder,
    }) => {
      const attack = ATTACKS.find((candidate) => candidate.name === name) as Attack;
      await mountControl(page, recorder, attack, 'seed');
      await expect.poll(() => leaked(recorder), { message: 'the recorder saw the leak' }).toBeGreaterThan(0);
    });
  }
});
