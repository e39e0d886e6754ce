import { readEnvelopeText } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { prepareAgentClient, sampleMessageText } from './prepare.js';

describe('prepareAgentClient', () => {
  it('reads a sample message of about 29 KB whole, as an agent document message', () => {
    const text = sampleMessageText(17);
    expect(text.length).toBeGreaterThan(24_000);
    expect(text.length).toBeLessThan(36_000);
    const read = readEnvelopeText(text, { direction: 'agent_to_client' });
    expect(read.kind).toBe('message');
    if (read.kind === 'message') expect(read.message.type).toBe('lineup.v1.ui.document');
  });

  it('reads it four times once per page, and never again', async () => {
    vi.resetModules();
    const protocol = await import('@lineup/shared/protocol');
    const reads = vi.spyOn(protocol, 'readEnvelopeText');
    const { prepareAgentClient: prepare } = await import('./prepare.js');
    prepare();
    prepare();
    expect(reads).toHaveBeenCalledTimes(4);
    expect(reads.mock.results.every((result) => (result.value as { kind: string }).kind === 'message')).toBe(
      true,
    );
    reads.mockRestore();
  });

  it('is exported from the package', async () => {
    const runtime = await import('../index.js');
    const local = await import('./prepare.js');
    expect(runtime.prepareAgentClient).toBe(local.prepareAgentClient);
    expect(typeof prepareAgentClient).toBe('function');
  });
});
