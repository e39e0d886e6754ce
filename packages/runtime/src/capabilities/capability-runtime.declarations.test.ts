/**
 * Declaring and revoking capabilities (seed 000 §5.1): published in the inventory, each change a new revision,
 * the same again nothing, and invalid declarations refused without a write.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { DECLARATIONS, setUp } from '../../test/capability-runtime.js';
import type { CapabilityDeclaration } from '../apps/registry.js';

describe('declaring capabilities', () => {
  it('publishes them in the inventory; the same again changes nothing; a change or a revocation is a new revision', async () => {
    const { registry } = await setUp();
    const first = await registry.inventory();
    expect(first.capabilities).toEqual([
      { name: 'account.delete', version: '1.0', risk: 'restricted' },
      { name: 'app.open_url', version: '1.0', risk: 'user_confirmation' },
      { name: 'device.pick_file', version: '1.0', risk: 'system_permission' },
      { name: 'status.show', version: '1.0', risk: 'display_only' },
    ]);
    expect(await registry.declareCapabilities(DECLARATIONS)).toBe(false);
    expect((await registry.inventory()).revision).toBe(first.revision);
    const changed = DECLARATIONS.map((item) =>
      item.name === 'status.show' ? { ...item, version: '1.1' } : item,
    );
    expect(await registry.declareCapabilities(changed)).toBe(true);
    const second = await registry.inventory();
    expect(second.revision).not.toBe(first.revision);
    expect(second.capabilities.find((item) => item.name === 'status.show')?.version).toBe('1.1');
    expect(await registry.revokeCapability('app.open_url')).toBe(true);
    expect(await registry.revokeCapability('app.open_url')).toBe(false);
    const third = await registry.inventory();
    expect(third.revision).not.toBe(second.revision);
    expect(third.capabilities.map((item) => item.name)).not.toContain('app.open_url');
    expect((await registry.appList()).capabilities.map((item) => item.name)).toEqual([
      'account.delete',
      'device.pick_file',
      'status.show',
    ]);
    // Declaring it again brings it back, as a new revision.
    expect(await registry.declareCapabilities(changed)).toBe(true);
    expect((await registry.inventory()).capabilities.map((item) => item.name)).toContain('app.open_url');
  });

  it('refuses invalid declarations and writes nothing', async () => {
    const { registry } = await setUp();
    const before = await registry.inventory();
    const open = DECLARATIONS[0] as CapabilityDeclaration;
    await expect(registry.declareCapabilities([{ ...open, risk: 'harmless' as never }])).rejects.toThrow(
      /capability descriptor/,
    );
    await expect(registry.declareCapabilities([{ ...open, description: '' }])).rejects.toThrow(/description/);
    await expect(registry.declareCapabilities([{ ...open, name: 'Open URL!' }])).rejects.toThrow(
      /capability descriptor/,
    );
    await expect(registry.declareCapabilities([open, open])).rejects.toThrow(/declared once/);
    await expect(registry.declareCapabilities([{ ...open, output_schema: [] as never }])).rejects.toThrow(
      /output schema/,
    );
    await expect(registry.revokeCapability('never.declared')).rejects.toThrow(/No capability/);
    expect((await registry.inventory()).revision).toBe(before.revision);
  });
});
