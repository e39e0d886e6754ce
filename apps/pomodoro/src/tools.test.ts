/**
 * Pomodoro's tools and the manifest the build emits from them. The manifest is compared with the committed
 * file `src/__snapshots__/lineup.manifest.json`, so a change to a tool contract shows up in review as a diff.
 */
import { generateManifest, manifestText } from '@lineup/miniapp-sdk';
import { parseMiniAppManifest, toAgentToolInventoryEntry } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { POMODORO_APP } from './app.ts';
import tools from './tools.ts';

describe('Pomodoro Agent Tools', () => {
  const manifest = generateManifest(POMODORO_APP, tools);

  it('declares exactly pomodoro.start and pomodoro.interrupt (seed 003 §7, §8.7)', () => {
    expect(manifest.tools.map((tool) => `${tool.app_scope}.${tool.method}`)).toEqual([
      'pomodoro.start',
      'pomodoro.interrupt',
    ]);
  });

  it('starts only in the foreground, through the runtime deadline operation; interrupts without activation', () => {
    const [start, interrupt] = manifest.tools;
    expect(start).toMatchObject({
      call_model: 'operation',
      activation: 'foreground_required',
      executor: { kind: 'runtime', builtin: 'deadline_operation' },
    });
    expect(interrupt).toMatchObject({
      activation: 'activation_not_required',
      executor: { kind: 'runtime', builtin: 'operation_interrupt' },
    });
    // The agent sees the contract, not how it is executed.
    expect(toAgentToolInventoryEntry(start!)).not.toHaveProperty('executor');
  });

  it('emits the committed manifest', async () => {
    const text = manifestText(manifest);
    expect(parseMiniAppManifest(JSON.parse(text))).toEqual(manifest);
    await expect(text).toMatchFileSnapshot('./__snapshots__/lineup.manifest.json');
  });
});
