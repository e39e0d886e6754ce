import { lineupProject } from '../../vitest.shared.ts';

// Unit tests render into jsdom; the real browser behaviour is proven by the web host's Playwright tests.
export default lineupProject({
  name: 'renderer-react',
  environment: 'jsdom',
  test: { setupFiles: ['test/setup.ts'] },
});
