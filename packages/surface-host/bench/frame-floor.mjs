#!/usr/bin/env node
// The floor under a Surface opening in a frame loaded ahead: the same round trip with no containment at all. A
// bare `<iframe sandbox="allow-scripts" srcdoc>` is loaded ahead with a port, then opened by sending it a script
// over the port; the script answers on the port. Medians, in one browser, against a bare frame opened from
// nothing (its script inline) while another sandboxed frame keeps the sandbox process running, as in
// `open-to-first-event.mjs`.
//
//   pnpm --filter @lineup/surface-host bench:floor
//
// Ways the loaded frame opens:
//   in place            — it loaded where it opens: no DOM change at all (not an open a host can make: it does
//                         not know where a Surface goes before the agent asks);
//   moved, same width   — moved with `Element.moveBefore` from a hidden holder as wide as its new place;
//   moved, other width  — the same from a holder as wide as the viewport;
//   script before move  — moved as wide, the script sent before the move.
//
// Uses Debian's Chromium (CHROMIUM_PATH).
import { launchChromium } from './chromium.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 45);
const WARMUP = 5;

const browser = await launchChromium();
const page = await browser.newPage();
await page.setContent(
  '<!doctype html><html><body style="margin:0"><div id="place" style="width:600px;margin:20px"></div></body></html>',
);

/** The loaded frame: takes a port, then runs each script sent on it. */
const LOADED = `<!doctype html><html><body><script>
addEventListener('message', function (event) {
  var port = event.ports[0];
  if (!port) return;
  window.port = port;
  port.onmessage = function (message) {
    var script = document.createElement('script');
    script.text = message.data;
    document.body.appendChild(script);
  };
  parent.postMessage('ready', '*');
}, { once: true });
parent.postMessage('loaded', '*');
</script></body></html>`;

const result = await page.evaluate(
  async ({ LOADED, ROUNDS, WARMUP }) => {
    const place = document.getElementById('place');
    const median = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)];
    };
    const fromFrame = (frame, data) =>
      new Promise((resolve) => {
        const listener = (event) => {
          if (event.source !== frame.contentWindow || event.data !== data) return;
          removeEventListener('message', listener);
          resolve();
        };
        addEventListener('message', listener);
      });
    const newFrame = () => {
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.style.cssText = 'display:block;width:100%;height:240px;border:0';
      return frame;
    };
    // Keeps the sandbox process running, as the pool does in the other benchmark.
    const keeper = newFrame();
    keeper.srcdoc = '<!doctype html><p>keeper</p>';
    document.body.appendChild(keeper);

    /** A frame loaded in `parent` (a hidden holder of `width`, or the place itself), with its port. */
    async function load(width) {
      const holder = document.createElement('div');
      if (width !== null)
        holder.style.cssText = `position:fixed;top:0;left:0;width:${width};height:240px;opacity:0;pointer-events:none;z-index:-1`;
      const frame = newFrame();
      const loaded = fromFrame(frame, 'loaded');
      frame.srcdoc = LOADED;
      holder.appendChild(frame);
      (width === null ? place : document.body).appendChild(holder);
      await loaded;
      const channel = new MessageChannel();
      const ready = fromFrame(frame, 'ready');
      frame.contentWindow.postMessage('port', '*', [channel.port2]);
      await ready;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { frame, holder, port: channel.port1 };
    }
    const SCRIPT = "window.port.postMessage('event')";
    const ways = {
      'in place': { width: null, move: false, before: false },
      'moved, same width': { width: '600px', move: true, before: false },
      'moved, other width': { width: '100%', move: true, before: false },
      'script before move': { width: '600px', move: true, before: true },
    };
    async function openLoaded({ width, move, before }) {
      const { frame, holder, port } = await load(width);
      const started = performance.now();
      const answered = new Promise((resolve) => {
        port.onmessage = () => resolve(performance.now() - started);
      });
      if (before) port.postMessage(SCRIPT);
      if (move) {
        place.moveBefore(frame, null);
        holder.remove();
      }
      if (!before) port.postMessage(SCRIPT);
      const delay = await answered;
      frame.remove();
      holder.remove();
      return delay;
    }
    async function openBare() {
      const frame = newFrame();
      const started = performance.now();
      const answered = fromFrame(frame, 'event').then(() => performance.now() - started);
      frame.srcdoc = `<!doctype html><main>hello</main><script>parent.postMessage('event', '*')</script>`;
      place.appendChild(frame);
      const delay = await answered;
      frame.remove();
      return delay;
    }
    const samples = Object.fromEntries([...Object.keys(ways), 'bare'].map((name) => [name, []]));
    for (let round = 0; round < ROUNDS + WARMUP; round++) {
      for (const [name, way] of Object.entries(ways)) {
        const delay = await openLoaded(way);
        if (round >= WARMUP) samples[name].push(delay);
      }
      const delay = await openBare();
      if (round >= WARMUP) samples.bare.push(delay);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  },
  { LOADED, ROUNDS, WARMUP },
);

console.log(`a bare frame loaded ahead, open → first answer, median of ${ROUNDS} rounds:`);
for (const [name, delay] of Object.entries(result)) {
  if (name === 'bare') continue;
  console.log(`  ${name.padEnd(20)} ${delay.toFixed(2)} ms, ${(delay / result.bare).toFixed(3)} × bare`);
}
console.log(`  bare frame opened from nothing: ${result.bare.toFixed(2)} ms`);
await browser.close();
