import { lineupProject } from '../../vitest.shared.ts';

// Unit tests run against fake-indexeddb; the web host's Playwright tests prove the same in Chromium.
export default lineupProject({ name: 'runtime' });
