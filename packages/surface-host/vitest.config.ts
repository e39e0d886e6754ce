import { lineupProject } from '../../vitest.shared.ts';

// DOM-level unit tests in jsdom; the sandbox, the CSP and real postMessage are proven in Chromium by the web
// host's Playwright tests (apps/web-host/e2e/surfaces.spec.ts).
export default lineupProject({ name: 'surface-host', environment: 'jsdom' });
