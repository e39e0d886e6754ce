/**
 * Pomodoro's page: a passive projection of the focus session the runtime holds for it (seed 003 §7). It has no
 * start, pause or stop buttons; it draws what the runtime committed under the session data key `operation`
 * (see `view.ts`) and counts down from the persisted deadline.
 *
 * Timing: the page never counts a stored duration down. Every update recomputes the display from `Date.now()`
 * and the deadline, then sets one `setTimeout` for the moment the `mm:ss` text next changes — so a throttled
 * background tab is simply right again on its next update, and becoming visible redraws at once.
 *
 * DOM hooks: `#app[data-phase]` is `idle | running | completed | interrupted | unknown`; the time is the
 * `role="timer"` element with `data-testid="remaining"` (its `aria-label` says it in words); the `role="status"`
 * line changes only with the phase, not every second.
 */
// First: before any module builds a zod schema (zod-config.ts).
import './zod-config.ts';
import './style.css';
import {
  createMiniAppClient,
  instanceIdFromHash,
  type MiniAppClient,
  type SessionDataSnapshot,
} from '@lineup/miniapp-sdk';
import tools from './tools.ts';
import {
  appName,
  chooseLanguage,
  describeSession,
  endedView,
  type Language,
  type SessionView,
  standaloneView,
} from './view.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The ring's radius in its 120×120 view box; its stroke is drawn in CSS. */
const RING_RADIUS = 52;

const root = document.getElementById('app');
if (!root) throw new Error('Pomodoro: index.html has no #app element.');

const language: Language = chooseLanguage(location.hash, navigator.language);
document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
document.title = appName(language);

// The page's one structure; `show` only updates its text and attributes.
function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function svg(tag: string, attributes: Record<string, string>): SVGElement {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

const brand = element('p', 'brand');
brand.textContent = appName(language);

const dial = element('div', 'dial');
const ring = svg('svg', { class: 'ring', viewBox: '0 0 120 120', 'aria-hidden': 'true', focusable: 'false' });
const circle = { cx: '60', cy: '60', r: String(RING_RADIUS), pathLength: '1' };
const track = svg('circle', { ...circle, class: 'ring-track' });
// Starts at 12 o'clock; the remaining arc ends there and its head sweeps clockwise as time passes.
const arc = svg('circle', { ...circle, class: 'ring-arc', transform: 'rotate(-90 60 60)' });
ring.append(track, arc);

const readout = element('div', 'readout');
const badge = element('span', 'badge', { 'aria-hidden': 'true' });
// A quiet stopwatch in the ring when there is no time to show (the `--:--` text stays for assistive tech).
const idleIcon = svg('svg', {
  class: 'idle-icon',
  viewBox: '0 0 24 24',
  'aria-hidden': 'true',
  focusable: 'false',
});
idleIcon.append(
  svg('circle', { cx: '12', cy: '13.5', r: '7.5' }),
  svg('path', { d: 'M12 13.5V9.5M9.5 2.75h5M12 2.75V6M18.25 6.75l1.25-1.25' }),
);
const timer = element('div', 'time', { role: 'timer', 'data-testid': 'remaining' });
const caption = element('span', 'caption', { 'aria-hidden': 'true' });
readout.append(badge, idleIcon, timer, caption);
dial.append(ring, readout);

const heading = element('h1', 'title');
const detail = element('p', 'detail');
const status = element('p', 'visually-hidden', { role: 'status' });
root.replaceChildren(brand, dial, heading, detail, status);

function setText(node: Element, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Draws one view: only what changed is touched, and the status line only when its sentence changes. */
function show(view: SessionView): void {
  if (!root) return;
  root.dataset.phase = view.phase;
  setText(timer, view.time);
  if (timer.getAttribute('aria-label') !== view.timeLabel) timer.setAttribute('aria-label', view.timeLabel);
  setText(caption, view.caption);
  setText(heading, view.title);
  setText(detail, view.detail);
  setText(status, view.announcement);
  // The arc is what is left: the remaining part while running, all of it once completed, none otherwise.
  const shown =
    view.phase === 'running' && view.progress !== null
      ? 1 - view.progress
      : view.phase === 'completed'
        ? 1
        : 0;
  arc.style.strokeDashoffset = String(-(1 - shown));
  root.dataset.arc = shown > 0 ? 'visible' : 'empty';
}

let operation: unknown;
let closed = false;
let pending: ReturnType<typeof setTimeout> | undefined;

/** Recomputes the display from the clock and schedules the next change, if any. */
function update(): void {
  if (pending !== undefined) clearTimeout(pending);
  pending = undefined;
  const view = describeSession(operation, Date.now(), language);
  if (closed) {
    // The runtime ended the session (a close never says why): a final state stays, anything else stops.
    show(view.phase === 'completed' || view.phase === 'interrupted' ? view : endedView(language));
    return;
  }
  show(view);
  if (view.nextChangeAt !== null) pending = setTimeout(update, Math.max(0, view.nextChangeAt - Date.now()));
}

function connect(): MiniAppClient | undefined {
  // Opened directly (no instance id, or not inside a frame): a calm note, not an exception.
  if (instanceIdFromHash(location.hash) === undefined || window.parent === window) return undefined;
  try {
    return createMiniAppClient({ tools });
  } catch (error) {
    console.warn('Pomodoro: could not connect to the LineUp host.', error);
    return undefined;
  }
}

const client = connect();
if (client === undefined) {
  root.dataset.host = 'none';
  show(standaloneView(language));
} else {
  update();
  client.onSessionData((snapshot: SessionDataSnapshot) => {
    operation = snapshot.data.operation;
    update();
  });
  client.onLifecycle((phase) => {
    if (phase === 'close') {
      closed = true;
      client.close();
    }
    update();
  });
  // Hidden tabs throttle timers: redraw from the clock as soon as the page is visible again.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !closed) update();
  });
}

// Transitions only after the first frame, so the ring does not sweep in from empty on load.
requestAnimationFrame(() => requestAnimationFrame(() => root.classList.add('is-ready')));
