import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as entry from './index.js';

// The public surface is pinned: adding, removing or renaming an export or an entry point fails here, so an
// API change is always deliberate.
describe('@lineup/scripted-agent public surface', () => {
  it('exports exactly the pinned entry points', () => {
    expect(Object.keys(packageJson.exports)).toEqual(['.', './package.json']);
  });

  it('exports exactly the pinned names from "."', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'DEFAULT_AGENT_ID',
      'POMODORO_LIMITS',
      'POMODORO_TOOLS',
      'SCRIPTED_AGENT_PHRASES',
      'STREAM_FRAME_DELAY_MS',
      'createScriptedAgent',
    ]);
  });

  it('is published (the scripted brain of @lineup/agent), with its sources and types', () => {
    expect('private' in packageJson).toBe(false);
    expect(packageJson.publishConfig.access).toBe('public');
    expect(packageJson.files).toContain('dist');
  });
});
