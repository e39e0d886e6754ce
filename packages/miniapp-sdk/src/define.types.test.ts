/** The cross-field rules the types encode: a wrong combination of executor, call model and activation does not compile. */
import type { AgentToolCallModel, RuntimeToolBuiltin } from '@lineup/shared/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  agentTool,
  type RuntimeAgentTool,
  type SdkAgentToolActivation,
  type SdkAgentToolCallModel,
} from './define.js';

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
});
