/**
 * The dispatcher every `AgentTools` shares, in the build (define.ts) and in a page whose descriptors the Vite
 * plugin computed at build time (define-page.ts): arguments through the input schema, the handler, the result
 * through the output schema. It never throws; a failure is a stable code for the runtime.
 */

import { MAX_DESCRIBED_PLACES, type RefusedPlace, zodIssuePlace } from '@lineup/shared';
import {
  MINIAPP_MAX_ERROR_ISSUES,
  MINIAPP_MAX_ERROR_MESSAGE_LENGTH,
  type MiniAppErrorIssue,
  miniAppErrorIssue,
} from '@lineup/shared/bridge';
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { z } from 'zod';
import type { AgentToolDefinition, AgentToolOutcome, AgentTools } from './agent-tool.js';

/** A key that may be named (it is a name, as in the schema): any other is `[*]`. */
const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$/;

/**
 * Every refused place of a value, as the channel carries them to the runtime (and it to the agent): a path of
 * names and indexes (`items[2].text`, `$` for the value itself, `[*]` for a key that is not a name) and a stable
 * code; no value. A key the schema does not have is a place of its own (`total`), named when it is a name.
 */
function refusedPlaces(issues: readonly z.core.$ZodIssue[]): MiniAppErrorIssue[] {
  const places: MiniAppErrorIssue[] = [];
  const add = (path: string, code: string) => places.push(miniAppErrorIssue(path, code));
  for (const issue of issues) {
    // The code and path `fromZodIssue` gives, without the message it writes for people (the channel carries
    // only the code); a path longer than an issue path may be ends in `…`, which names no place (`$`).
    const { path, code } = zodIssuePlace(issue);
    if (issue.code === 'unrecognized_keys') {
      const at = path === '$' ? '' : path;
      for (const key of issue.keys)
        add(NAME.test(key) ? (at === '' ? key : `${at}.${key}`) : `${at}[*]`, 'unknown_property');
    } else add(path, code);
  }
  return places;
}

/**
 * Names refused places in one line: in a test and under `vite` (dev), `@lineup/shared`'s `describeRefusedPlaces`
 * (`count: missing_property (expected integer)`), as the runtime says them; in a built page, whose message only
 * the runtime reads (it describes the places itself, from the published schema), just the paths and codes —
 * about 1 KiB of gzip the page does not carry.
 */
export type DescribePlaces = (schema: unknown, places: readonly RefusedPlace[], root: string) => string;

/** The paths and codes of the places, without what the schema wants: the built page's `DescribePlaces`. */
export const placesOnly: DescribePlaces = (_, places, root) => {
  const named = places.slice(0, MAX_DESCRIBED_PLACES);
  const rest = places.length - named.length;
  return `${named.map((place) => `${place.path === '$' ? root : place.path}: ${place.code}`).join('; ')}${rest > 0 ? ` (and ${rest} more)` : ''}`;
};

/** `text`, or its first `max - 1` characters and `…`. */
const bounded = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/** A refusal as the SDK returns it: its code, one line naming the places, the places. */
function refusal(
  code: 'invalid_arguments' | 'invalid_output',
  issues: readonly z.core.$ZodIssue[],
  schema: unknown,
  describeRefusedPlaces: DescribePlaces,
): AgentToolOutcome {
  const places = refusedPlaces(issues);
  const where =
    code === 'invalid_arguments'
      ? `The arguments do not match the input schema: ${describeRefusedPlaces(schema, places, '(arguments)')}.`
      : `The handler returned a result the output schema refuses: ${describeRefusedPlaces(schema, places, '(result)')}.`;
  return {
    status: 'error',
    code,
    message: bounded(where, MINIAPP_MAX_ERROR_MESSAGE_LENGTH),
    issues: places.slice(0, MINIAPP_MAX_ERROR_ISSUES),
  };
}

/** The frozen `AgentTools` of validated `descriptors` and the tools that declared them. */
export function agentToolsOf(
  appScope: string,
  descriptors: readonly AgentToolDescriptor[],
  declared: Readonly<Record<string, AgentToolDefinition>>,
  describe: DescribePlaces = placesOnly,
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
      const descriptor = descriptors.find((candidate) => candidate.method === method);
      if (!parsed.success)
        return refusal('invalid_arguments', parsed.error.issues, descriptor?.input_schema, describe);
      let result: unknown;
      try {
        result = await tool.handler(parsed.data, { ...context, appScope, method });
      } catch (error) {
        // The message of the exception, bounded; never its stack.
        return {
          status: 'error',
          code: 'handler_failed',
          message: bounded(error instanceof Error ? error.message : 'The handler failed.', 300),
        };
      }
      const output = tool.output.safeParse(result, { reportInput: true });
      if (!output.success)
        return refusal('invalid_output', output.error.issues, descriptor?.output_schema, describe);
      return { status: 'ok', result: output.data };
    },
  };
  return Object.freeze(agentTools);
}
