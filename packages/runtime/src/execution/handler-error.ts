/**
 * What the agent reads when a MiniApp's handler refused or failed (`tool_return` with `status: "error"`): the
 * page's stable code and located places, in the runtime's own words — the page's free text never reaches it.
 */
import { describeRefusedPlaces, refusedPlaceSentence, schemaWants } from '@lineup/shared';
import type { MiniAppErrorIssue } from '@lineup/shared/bridge';
import { type AgentToolDescriptor, type ToolResultPayload, wireIssues } from '@lineup/shared/protocol';
import { withPlaces } from '../tools/intake.js';

/**
 * The agent's error for a handler's `tool_return` error. The SDK's `invalid_arguments` (the handler's own input
 * schema refused what the published one let through) and `invalid_output` (its result failed its output schema,
 * so nothing was delivered; `invalid_result` from pages built with an earlier SDK) keep their located issues — a
 * path of names and indexes and a stable code — and name them in the message as the SDK does
 * (`count: missing_property (expected integer)`), with what the published schema wants there: our words, never
 * the page's. Anything else is `execution_failed` naming the page's stable code. The page's free-text message
 * never reaches the agent.
 */
export function handlerError(
  outcome: { readonly code: string; readonly issues?: readonly MiniAppErrorIssue[] },
  descriptor: AgentToolDescriptor | undefined,
): NonNullable<ToolResultPayload['error']> {
  const located = (schema: unknown, prefix: string, valueName: string, message: string) => {
    const places = outcome.issues ?? [];
    if (places.length === 0) return { message };
    return {
      message: withPlaces(message, describeRefusedPlaces(schema, places, valueName)),
      issues: wireIssues(
        places.map((place) => ({
          path: place.path,
          code: place.code,
          message: refusedPlaceSentence(place.code, schemaWants(schema, place)),
        })),
        prefix,
      ),
    };
  };
  if (outcome.code === 'invalid_arguments')
    return {
      code: 'invalid_arguments',
      ...located(
        descriptor?.input_schema,
        'payload.arguments',
        '(arguments)',
        "The app's handler refused the arguments (its own input schema is stricter than the published one).",
      ),
    };
  if (outcome.code === 'invalid_output' || outcome.code === 'invalid_result')
    return {
      code: 'invalid_output',
      ...located(
        descriptor?.output_schema,
        'result',
        '(result)',
        "The app's handler returned a result its output schema refuses, so nothing was delivered.",
      ),
    };
  return { code: 'execution_failed', message: `The app's handler returned ${outcome.code}.` };
}
