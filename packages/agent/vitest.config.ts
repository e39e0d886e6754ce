import { lineupProject } from '../../vitest.shared.ts';

// The store's tests run on PGlite, and on the PostgreSQL server of LINEUP_TEST_POSTGRES_URL when it is set
// (`.ci/run` starts Debian's PostgreSQL on 127.0.0.1 and sets it).
export default lineupProject({ name: 'agent' });
