/**
 * The rules the types encode: a wrong combination of executor, call model and activation, or a tool key that is not
 * a method name, does not compile.
 */
import type { AgentToolCallModel, RuntimeToolBuiltin } from '@lineup/shared/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type {
  AgentTools,
  RuntimeAgentTool,
  SdkAgentToolActivation,
  SdkAgentToolCallModel,
} from './agent-tool.js';
import { agentTool, defineAgentTools } from './define.js';

const contract = {
  contractVersion: '1.0',
  description: 'A tool.',
  input: z.strictObject({ minutes: z.int().min(1) }),
  output: z.strictObject({ status: z.string() }),
  timeoutMs: 10_000,
  risk: 'display_only',
} as const;

describe('tool types', () => {
  it('a handler tool takes query, command or interactive, and app_ready or foreground_required', () => {
    expectTypeOf<SdkAgentToolCallModel>().toEqualTypeOf<'query' | 'command' | 'interactive'>();
    expectTypeOf<SdkAgentToolActivation>().toEqualTypeOf<'app_ready' | 'foreground_required'>();
    agentTool({
      ...contract,
      callModel: 'command',
      activation: 'app_ready',
      handler: ({ minutes }) => ({ status: String(minutes) }),
    });
    // @ts-expect-error an operation is served by a runtime built-in, never a handler
    agentTool({
      ...contract,
      callModel: 'operation',
      activation: 'app_ready',
      handler: () => ({ status: 'ok' }),
    });
    // @ts-expect-error activation_not_required never starts the page the handler runs in
    agentTool({
      ...contract,
      callModel: 'query',
      activation: 'activation_not_required',
      handler: () => ({ status: 'ok' }),
    });
  });

  it('deadline_operation serves operation tools only; operation_interrupt any call model', () => {
    agentTool({
      ...contract,
      callModel: 'operation',
      activation: 'foreground_required',
      runtime: 'deadline_operation',
    });
    // @ts-expect-error deadline_operation serves operation tools only
    agentTool({
      ...contract,
      callModel: 'command',
      activation: 'foreground_required',
      runtime: 'deadline_operation',
    });
    agentTool({
      ...contract,
      callModel: 'command',
      activation: 'activation_not_required',
      runtime: 'operation_interrupt',
    });
    // A tool has a handler or a built-in, never both.
    // @ts-expect-error a runtime tool has no handler
    agentTool({
      ...contract,
      callModel: 'command',
      activation: 'app_ready',
      runtime: 'operation_interrupt',
      handler: () => ({ status: 'ok' }),
    });
  });

  it('types every built-in of the protocol and every call model', () => {
    expectTypeOf<RuntimeAgentTool['runtime']>().toEqualTypeOf<RuntimeToolBuiltin>();
    expectTypeOf<RuntimeAgentTool['callModel']>().toEqualTypeOf<AgentToolCallModel>();
  });

  describe('a tool key is a method name: a lowercase letter, then letters, digits and _, at most 64 characters', () => {
    // Types only: each call is never run (the build refuses these keys too, define.test.ts).
    const tool = agentTool({
      ...contract,
      callModel: 'command',
      activation: 'app_ready',
      handler: ({ minutes }) => ({ status: String(minutes) }),
    });
    const define = (check: () => AgentTools) => check;

    it('accepts add, addNote, add_2 and a key of 64 characters', () => {
      define(() => defineAgentTools({ appScope: 'notes', tools: { add: tool, addNote: tool, add_2: tool } }));
      define(() =>
        defineAgentTools({
          appScope: 'notes',
          tools: { a234567890123456789012345678901234567890123456789012345678901234: tool },
        }));
    });

    it('refuses a capital, a dash, a leading digit or _, and a key of 65 characters', () => {
      // @ts-expect-error a method name starts with a lowercase letter
      define(() => defineAgentTools({ appScope: 'notes', tools: { Add: tool } }));
      // @ts-expect-error a method name starts with a lowercase letter
      define(() => defineAgentTools({ appScope: 'notes', tools: { AddNote: tool } }));
      // @ts-expect-error letters, digits and _ only
      define(() => defineAgentTools({ appScope: 'notes', tools: { 'add-note': tool } }));
      // @ts-expect-error a method name starts with a letter
      define(() => defineAgentTools({ appScope: 'notes', tools: { '1add': tool } }));
      // @ts-expect-error a method name starts with a letter
      define(() => defineAgentTools({ appScope: 'notes', tools: { _add: tool } }));
      // @ts-expect-error an empty key is no method name
      define(() => defineAgentTools({ appScope: 'notes', tools: { '': tool } }));
      define(() =>
        defineAgentTools({
          appScope: 'notes',
          // @ts-expect-error at most 64 characters
          tools: { a2345678901234567890123456789012345678901234567890123456789012345: tool },
        }));
      // Only the bad key is refused: its good neighbour is not reported with it.
      // @ts-expect-error the one bad key
      define(() => defineAgentTools({ appScope: 'notes', tools: { add: tool, Add: tool } }));
    });

    it('leaves keys it cannot see (a Record<string, …>) to the check at build time', () => {
      const tools: Record<string, typeof tool> = { add: tool };
      define(() => defineAgentTools({ appScope: 'notes', tools }));
    });

    it('keeps a wrapped handler typed from its schemas', () => {
      define(() =>
        defineAgentTools({
          appScope: 'notes',
          tools: {
            add: agentTool({
              ...contract,
              callModel: 'command',
              activation: 'app_ready',
              handler: ({ minutes }) => {
                expectTypeOf(minutes).toEqualTypeOf<number>();
                return { status: 'ok' };
              },
            }),
          },
        }));
      define(() =>
        defineAgentTools({
          appScope: 'notes',
          tools: {
            add: agentTool({
              ...contract,
              callModel: 'command',
              activation: 'app_ready',
              // @ts-expect-error the output schema wants status: a string
              handler: () => ({ status: 1 }),
            }),
          },
        }));
    });
  });
});
