import { lineupProject } from '../../vitest.shared.ts';

export default lineupProject({ name: 'pomodoro' });
