/**
 * The catalog of the DSL action runner (seed 002 §11, seed 004 §4): the DSL capabilities derived from the declared
 * wire capabilities (one risk mapping), a revoked one refused at reserve, and the host bindings the runner refuses.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { BINDINGS, CONVERSATION, click, newDatabase, REFS, schema, setUp } from '../../test/action-runner.js';
import { CapabilityRuntime } from '../capabilities/capability-runtime.js';
import { ConversationStore } from '../conversations/conversation-store.js';
import { SchemaUnusableError } from '../tools/schema-check.js';
import { ActionRunner, DSL_RISK_OF, type DslCapabilityBinding } from './action-runner.js';

describe('the catalog', () => {
  it('offers the DSL capabilities of declared wire capabilities, with the risk derived once', async () => {
    const { runner, registry } = await setUp();
    expect(DSL_RISK_OF).toEqual({
      display_only: 'read',
      user_confirmation: 'write',
      system_permission: 'write',
      restricted: 'write',
    });
    const catalog = await runner.catalog();
    expect(catalog.map((item) => [item.id, item.risk])).toEqual([
      ['read_file', 'write'],
      ['count_chars', 'read'],
      ['copy_text', 'write'],
    ]);
    expect(catalog[0]).toEqual({
      id: 'read_file',
      title: 'Read a file you pick',
      description: 'You pick a file; its number of lines is shown.',
      risk: 'write',
      parameters: BINDINGS[0]?.parameters,
      resultFields: ['totalLines'],
    });
    await registry.revokeCapability('status.count');
    expect((await runner.catalog()).map((item) => item.id)).toEqual(['read_file', 'copy_text']);
    // A click for a revoked capability is refused at reserve: nothing is recorded.
    await expect(runner.submit(CONVERSATION, click(REFS.count))).rejects.toMatchObject({
      code: 'unknown_capability',
    });
  });

  it('refuses a host binding that breaks the descriptor rules, or two with one id', async () => {
    const db = await newDatabase();
    const base = {
      documents: new ConversationStore(db),
      capabilities: new CapabilityRuntime(db, { handlers: {} }),
    };
    expect(
      () =>
        new ActionRunner(db, {
          ...base,
          bindings: [{ ...(BINDINGS[1] as DslCapabilityBinding), id: 'has space' }],
        }),
    ).toThrow();
    expect(
      () =>
        new ActionRunner(db, {
          ...base,
          bindings: [{ ...(BINDINGS[1] as DslCapabilityBinding), title: '' }],
        }),
    ).toThrow();
    expect(
      () =>
        new ActionRunner(db, {
          ...base,
          bindings: [BINDINGS[1] as DslCapabilityBinding, BINDINGS[1] as DslCapabilityBinding],
        }),
    ).toThrow(/Two DSL capabilities named count_chars/);
    // Parameters the validator cannot use: refused here, not at every click.
    const unusable = () =>
      new ActionRunner(db, {
        ...base,
        bindings: [
          {
            ...(BINDINGS[1] as DslCapabilityBinding),
            parameters: schema({ text: { type: 'string', pattern: '[' } }, ['text']),
          },
        ],
      });
    expect(unusable).toThrow(SchemaUnusableError);
    expect(unusable).toThrow(
      'The parameters schema of DSL capability count_chars cannot be used: /properties/text/pattern is not',
    );
  });
});
