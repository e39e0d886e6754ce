import { afterEach, describe, expect, it, vi } from 'vitest';
import actionsSource from '../examples/actions.ts?raw';
import agentSource from '../examples/agent.ts?raw';
import errorsSource from '../examples/errors.ts?raw';
import jsonSchemaSource from '../examples/json-schema.ts?raw';
import streamingSource from '../examples/streaming.ts?raw';
import validateSource from '../examples/validate-and-compute.ts?raw';
import wireSource from '../examples/wire.ts?raw';
import readme from '../README.md?raw';

/** Runs an example module and returns what it logged. */
async function run(load: () => Promise<unknown>): Promise<unknown[][]> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.resetModules();
  await load();
  return log.mock.calls;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('README examples', () => {
  it.each([
    ['validate-and-compute', validateSource],
    ['actions', actionsSource],
    ['json-schema', jsonSchemaSource],
    ['streaming', streamingSource],
    ['wire', wireSource],
    ['agent', agentSource],
    ['errors', errorsSource],
  ])('the README shows examples/%s.ts verbatim', (_name, source) => {
    expect(readme).toContain(source.trimEnd());
  });

  it('validate-and-compute prints what its comments say', async () => {
    const calls = await run(() => import('../examples/validate-and-compute.js'));
    expect(calls[0]?.[0]).toBeCloseTo(10000 * 1.055 ** 10, 6);
    expect(calls[1]?.[0]).toBeCloseTo(10000 * 1.055 ** 10 - 10000, 6);
    expect(calls[2]).toEqual(['step_mismatch']);
    expect(calls[3]).toEqual([5]);
    expect(calls[4]?.[0]).toEqual([
      expect.objectContaining({ path: 'version', code: 'unsupported_version' }),
    ]);
  });

  it('errors prints what its comments say', async () => {
    const calls = await run(() => import('../examples/errors.js'));
    expect(calls).toEqual([
      ['ui_schema_invalid at mode: invalid_value'],
      ['protocol_invalid at id: missing_property'],
      ['ui_state_rejected'],
    ]);
  });

  it('actions prints what its comments say', async () => {
    const calls = await run(() => import('../examples/actions.js'));
    expect(calls[0]).toEqual([
      {
        kind: 'tool',
        actionId: 'read_info',
        capabilityId: 'read_file',
        arguments: { file_path: 'docs/protocol.md', limit: 20 },
      },
    ]);
    expect(calls[1]).toEqual([212]);
  });

  it('json-schema prints what its comments say', async () => {
    const calls = await run(() => import('../examples/json-schema.js'));
    expect(calls).toEqual([
      ['urn:dsh:intelligent-ui:document:1.1'],
      ['{"a":[true,null],"b":1}'],
      [true],
      [200],
    ]);
  });

  it('streaming prints what its comments say', async () => {
    const calls = await run(() => import('../examples/streaming.js'));
    expect(calls).toEqual([['completed', 5, 3], [true], [true], ['invalid_value']]);
  });

  it('wire prints what its comments say', async () => {
    const calls = await run(() => import('../examples/wire.js'));
    expect(calls).toEqual([
      ['lineup.v1.ui.patch'],
      ['unsupported'],
      ['call_9', 'payload.inventory_revision'],
      ['event'],
      ['protocol_invalid', [{ path: 'key', code: 'invalid_value' }]],
    ]);
  });

  it('agent prints what its comments say', async () => {
    const calls = await run(() => import('../examples/agent.js'));
    expect(calls).toEqual([
      ['intelligent_ui', ['document']],
      [true],
      ['- document: invalid_type — Pass document as a JSON object, not as a JSON string.'],
    ]);
  });
});
