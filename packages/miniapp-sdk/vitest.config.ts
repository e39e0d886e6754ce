import { fileURLToPath } from 'node:url';
import { lineupProject } from '../../vitest.shared.ts';

export default lineupProject({
  name: 'miniapp-sdk',
  test: {
    // page.ts imports the descriptors the plugin computes at build time; a unit test gets a stub.
    alias: {
      'lineup:miniapp-descriptors': fileURLToPath(new URL('./test/descriptors-stub.ts', import.meta.url)),
    },
  },
});
