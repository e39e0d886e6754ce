import { lineupProject } from '../../vitest.shared.ts';

// Every envelope the agent sends is checked with the shared validators; one test runs it against the real
// runtime (fake-indexeddb) through the in-process transport.
export default lineupProject({ name: 'scripted-agent' });
