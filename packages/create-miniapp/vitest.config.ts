import { lineupProject } from '../../vitest.shared.ts';

// What `npm create @lineup/miniapp` writes, checked file by file against the SDK README's quick start; the pack
// check installs, type-checks, tests and builds it from the tarballs with npm and pnpm.
export default lineupProject({ name: 'create-miniapp' });
