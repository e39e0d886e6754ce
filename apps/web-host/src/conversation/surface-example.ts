/**
 * The inline Surface example of seed 000 §4.1 as an agent would send it: a `lineup.v1.ui.open` envelope,
 * delivered through the same `parseEnvelope` path as anything pasted or received.
 */
export const WEATHER_INSTANCE_ID = 'weather.dashboard.01';

const html = `<main>
  <h1 id="city"></h1>
  <p><span id="temperature"></span> °C</p>
  <button id="refresh">Refresh</button>
</main>`;

const css = `body { margin: 0; font: 15px system-ui, sans-serif; color: #1d2330; }
main { padding: 16px; }
h1 { margin: 0 0 4px; font-size: 20px; }
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
  fitHeight();
});
document.getElementById('refresh').onclick = function () {
  LineUpSurface.event('refresh', { unit: 'c' });
};`;

export function weatherOpenEnvelope(conversationId: string, messageId: string): object {
  return {
    v: 1,
    id: `msg_example_${messageId}`,
    type: 'lineup.v1.ui.open',
    conversation_id: conversationId,
    sender: { kind: 'agent', id: 'example_agent' },
    payload: {
      instance_id: WEATHER_INSTANCE_ID,
      app: { id: 'com.lineup.weather.dashboard', name: 'Weather dashboard', version: '1.0.0', html, css, js },
      state: { city: 'Beijing', temperature: 22 },
    },
  };
}
