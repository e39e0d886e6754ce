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
};
