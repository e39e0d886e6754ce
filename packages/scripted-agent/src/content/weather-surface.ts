/**
 * The weather Surface: an inline bundle (seed 000 §4.1) as `lineup.v1.ui.open` carries it, after the Web
 * Reference Host's `surface-example.ts`. The host renders it in a sandboxed `srcdoc` frame; its only way out
 * is `LineUpSurface.event('refresh', …)`, which reaches the agent as `lineup.v1.ui.event`. The text it shows
 * comes from `state`, so one bundle serves both languages. The weather is sample data.
 */
import type { Language } from '../conversation/language.js';

export const WEATHER_APP = Object.freeze({
  id: 'com.lineup.demo.weather',
  name: 'Weather (demo)',
  version: '1.0.0',
});

/** The event the Refresh button sends. */
export const WEATHER_REFRESH_EVENT = 'refresh';

const html = `<main>
  <h1 id="city"></h1>
  <p><span id="temperature"></span> °C · <span id="sky"></span></p>
  <p id="note"></p>
  <button id="refresh"></button>
</main>`;

const css = `body { margin: 0; font: 15px system-ui, sans-serif; color: #1d2330; }
main { padding: 16px; }
h1 { margin: 0 0 4px; font-size: 20px; }
#note { color: #5b6478; font-size: 13px; }
button { font: inherit; padding: 4px 12px; }`;

const js = `// Ask for the content's height whenever it changes; before the frame is laid out the body measures 0, which is
// not a height to ask for.
function fitHeight() {
  var height = Math.ceil(document.body.getBoundingClientRect().height);
  if (height > 0) LineUpSurface.resize(height);
}
new ResizeObserver(fitHeight).observe(document.body);
LineUpSurface.onState(function (state) {
  document.getElementById('city').textContent = String(state.city);
  document.getElementById('temperature').textContent = String(state.temperature);
  document.getElementById('sky').textContent = String(state.sky);
  document.getElementById('note').textContent = String(state.note);
  document.getElementById('refresh').textContent = String(state.refresh);
  fitHeight();
});
document.getElementById('refresh').onclick = function () {
  LineUpSurface.event('refresh', {});
};`;

/** The bundle: the same for every language. */
export const WEATHER_BUNDLE = Object.freeze({ ...WEATHER_APP, html, css, js });

interface Sample {
  readonly city: string;
  readonly temperature: number;
  readonly sky: string;
}

const SAMPLES = {
  en: [
    { city: 'Beijing', temperature: 22, sky: 'Sunny' },
    { city: 'Shanghai', temperature: 28, sky: 'Cloudy' },
    { city: 'Guangzhou', temperature: 31, sky: 'Showers' },
  ],
  zh: [
    { city: '北京', temperature: 22, sky: '晴' },
    { city: '上海', temperature: 28, sky: '多云' },
    { city: '广州', temperature: 31, sky: '阵雨' },
  ],
} as const satisfies Record<Language, readonly Sample[]>;

const LABELS = {
  en: { note: 'Sample data, not a forecast.', refresh: 'Refresh' },
  zh: { note: '示例数据，不是天气预报。', refresh: '刷新' },
} as const satisfies Record<Language, Record<string, string>>;

/** The state of the `index`-th refresh (0 when opened): the samples in turn. */
export function weatherState(language: Language, index: number) {
  const samples = SAMPLES[language];
  const sample = samples[index % samples.length] ?? samples[0];
  return { ...sample, ...LABELS[language] };
}
