/**
 * The dispatcher every `AgentTools` shares, in the build (define.ts) and in a page whose descriptors the Vite
 * plugin computed at build time (define-page.ts): arguments through the input schema, the handler, the result
 * through the output schema. It never throws; a failure is a stable code for the runtime.
 */

import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { AgentToolDefinition, AgentToolOutcome, AgentTools } from './define.js';

/** The message of a handler's exception, bounded; never its stack. */
function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : 'The handler failed.';
  return message.length <= 300 ? message : `${message.slice(0, 299)}…`;
}

/** The frozen `AgentTools` of validated `descriptors` and the tools that declared them. */
export function agentToolsOf(
  appScope: string,
  descriptors: readonly AgentToolDescriptor[],
  declared: Readonly<Record<string, AgentToolDefinition>>,
): AgentTools {
  const agentTools: AgentTools = {
    appScope,
    descriptors,
    async handle(method, input, context): Promise<AgentToolOutcome> {
      const tool = Object.hasOwn(declared, method) ? declared[method] : undefined;
      if (tool === undefined || typeof tool.handler !== 'function')
        return {
          status: 'error',
          code: 'unknown_method',
          message: 'This MiniApp has no handler for this method.',
        };
      const parsed = tool.input.safeParse(input);
      if (!parsed.success)
        return {
          status: 'error',
          code: 'invalid_arguments',
          message: 'The arguments do not match the input schema.',
        };
      let result: unknown;
      try {
        result = await tool.handler(parsed.data, { ...context, appScope, method });
      } catch (error) {
        return { status: 'error', code: 'handler_failed', message: failureMessage(error) };
      }
      const output = tool.output.safeParse(result);
      if (!output.success)
        return {
          status: 'error',
          code: 'invalid_result',
          message: 'The handler returned a result the output schema refuses.',
        };
      return { status: 'ok', result: output.data };
    },
  };
  return Object.freeze(agentTools);
}
