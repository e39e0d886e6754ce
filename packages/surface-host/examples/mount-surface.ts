import type { UIEventPayload } from '@lineup/shared/protocol';
import { mountSurface } from '@lineup/surface-host';

// One inline Surface: the frame is sandboxed with scripts only, under the Surface CSP; the
// bundle talks to the host through LineUpSurface, and every message is checked before it counts.
export function showWeather(container: HTMLElement, sendToAgent: (payload: UIEventPayload) => void) {
  const surface = mountSurface(container, {
    instanceId: 'weather.dashboard.01',
    bundle: {
      name: 'Weather dashboard',
      html: '<main><h1 id="city"></h1><button id="refresh">Refresh</button></main>',
      css: 'main { padding: 16px }',
      js: `LineUpSurface.onState((state) => { document.getElementById('city').textContent = state.city; });
document.getElementById('refresh').onclick = () => LineUpSurface.event('refresh', { unit: 'c' });`,
    },
    state: { city: 'Beijing' },
    // Each valid user event is the payload of lineup.v1.ui.event.
    onEvent: (event) => sendToAgent(event),
    onRejected: (rejection) => console.log(rejection.reason),
  });
  // ui.patch: new state only. Anything but a JSON object within the size limit throws and changes nothing.
  surface.patch({ city: 'Shanghai' });
  return surface;
}
