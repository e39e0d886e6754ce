/**
 * Pomodoro's manifest exactly as its build emits it: the committed snapshot that `apps/pomodoro`'s own test pins to
 * `src/tools.ts`. Read from there (a test fixture, not a dependency on the app), so these tests always meet the
 * tools Pomodoro really publishes.
 */
import { parseAgentToolDescriptor, toAgentToolInventoryEntry } from '@lineup/shared/protocol';
import manifest from '../../../apps/pomodoro/src/__snapshots__/lineup.manifest.json' with { type: 'json' };

export const POMODORO_MANIFEST = manifest;

/** The inventory entries of Pomodoro's tools, as a client lists them. */
export const POMODORO_INVENTORY_TOOLS = POMODORO_MANIFEST.tools.map((descriptor) =>
  toAgentToolInventoryEntry(parseAgentToolDescriptor(descriptor)),
);
