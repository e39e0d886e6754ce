/**
 * Pomodoro's identity as its manifest declares it. The Vite build (vite.config.ts) and the manifest test read
 * it from here; the version is the package's.
 */
import type { MiniAppInfo } from '@lineup/miniapp-sdk';
import packageJson from '../package.json' with { type: 'json' };

export const POMODORO_APP: MiniAppInfo = {
  id: 'com.lineup.pomodoro',
  name: 'Pomodoro',
  version: packageJson.version,
  // A Surface agents may open by reference (public/surfaces/focus.*): a focus card whose only events are the
  // user's start (with the minutes) and stop.
  surfaces: [{ id: 'focus', entry: 'surfaces/focus.html', events: ['start', 'stop'] }],
};
