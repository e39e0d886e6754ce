/**
 * The dispatcher every `AgentTools` shares, in the build (define.ts) and in a page whose descriptors the Vite
 * plugin computed at build time (define-page.ts): arguments through the input schema, the handler, the result
 * through the output schema. It never throws; a failure is a stable code for the runtime.
 */

import { fromZodIssue, UI_ISSUE_CODES } from '@lineup/shared';
import {
  MINIAPP_CHANNEL_LIMITS,
  MINIAPP_ISSUE_PATH_PATTERN,
  type MiniAppErrorIssue,
} from '@lineup/shared/bridge';
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { z } from 'zod';
import type { AgentToolDefinition, AgentToolOutcome, AgentTools } from './define.js';

/** How many of zod's issues a message names. */
const SHOWN_ISSUES = 3;

/** An issue path as the author writes it: `items[2].text`; the value's root is `(arguments)` or `(result)`. */
function pathText(path: readonly PropertyKey[], root: string): string {
  let text = '';
  for (const segment of path)
    text +=
      typeof segment === 'number'
        ? `[${segment}]`
        : `${text === '' ? '' : '.'}${String(segment).slice(0, 64)}`;
  return text === '' ? root : text;
}

/**
 * The first issues of a refused value, each as its path, zod's code and what was expected — never the value
 * itself (it may be the user's data): `text: invalid_type (expected string); count: too_small (minimum 1)`.
 */
function describeZodIssues(issues: readonly z.core.$ZodIssue[], root: string): string {
  const described = issues.slice(0, SHOWN_ISSUES).map((issue) => {
    const where = pathText(issue.path, root);
    const detail =
      issue.code === 'invalid_type'
        ? `expected ${issue.expected}`
        : issue.code === 'too_small'
          ? `minimum ${String(issue.minimum)}`
          : issue.code === 'too_big'
            ? `maximum ${String(issue.maximum)}`
            : issue.code === 'unrecognized_keys'
              ? `not in the schema: ${issue.keys
                  .slice(0, 3)
                  .map((key) => key.slice(0, 64))
                  .join(', ')}`
              : issue.code === 'invalid_value'
                ? `one of ${issue.values
                    .slice(0, 5)
                    .map((value) => (typeof value === 'string' ? JSON.stringify(value) : String(value)))
                    .join(', ')}`
                : undefined;
    return `${where}: ${issue.code}${detail === undefined ? '' : ` (${detail})`}`;
  });
  const more = issues.length > SHOWN_ISSUES ? ` (and ${issues.length - SHOWN_ISSUES} more)` : '';
  const text = `${described.join('; ')}${more}`;
  return text.length <= 240 ? text : `${text.slice(0, 239)}…`;
}

const ISSUE_CODES: ReadonlySet<string> = new Set(UI_ISSUE_CODES);
/** A quoted key (`["a b"]`): a key that is not a name could be anything the user wrote. */
const QUOTED_KEY = /\["(?:[^"\\]|\\.)*"\]/g;

/**
 * The first issues as the channel carries them to the runtime (and it to the agent): a path of names and indexes
 * (`items[2].text`, `$` for the value itself, `[*]` for a key that is not a name) and a stable code; no value.
 */
function channelIssues(issues: readonly z.core.$ZodIssue[]): MiniAppErrorIssue[] {
  return issues.slice(0, MINIAPP_CHANNEL_LIMITS.maxErrorIssues).map((issue) => {
    const ours = fromZodIssue(issue);
    const path = ours.path.replace(QUOTED_KEY, '[*]');
    return {
      path:
        path.length <= MINIAPP_CHANNEL_LIMITS.maxErrorIssuePathLength && MINIAPP_ISSUE_PATH_PATTERN.test(path)
          ? path
          : '$',
      code: ISSUE_CODES.has(ours.code) ? ours.code : 'invalid_value',
    };
  });
}

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
      // The input is reported to tell a missing field from a wrong one; it never leaves this function.
      const parsed = tool.input.safeParse(input, { reportInput: true });
      if (!parsed.success)
        return {
          status: 'error',
          code: 'invalid_arguments',
          message: `The arguments do not match the input schema: ${describeZodIssues(parsed.error.issues, '(arguments)')}.`,
          issues: channelIssues(parsed.error.issues),
        };
      let result: unknown;
      try {
        result = await tool.handler(parsed.data, { ...context, appScope, method });
      } catch (error) {
        return { status: 'error', code: 'handler_failed', message: failureMessage(error) };
      }
      const output = tool.output.safeParse(result, { reportInput: true });
      if (!output.success)
        return {
          status: 'error',
          code: 'invalid_result',
          message: `The handler returned a result the output schema refuses: ${describeZodIssues(output.error.issues, '(result)')}.`,
          issues: channelIssues(output.error.issues),
        };
      return { status: 'ok', result: output.data };
    },
  };
  return Object.freeze(agentTools);
}
