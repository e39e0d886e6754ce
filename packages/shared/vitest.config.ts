import { lineupProject } from '../../vitest.shared.ts';

// Isolated: the digest tests watch a module (vi.mock), which needs fresh modules per file.
export default lineupProject({ name: 'shared', isolate: true });
