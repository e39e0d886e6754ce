/**
 * Step 2 of the pipeline: the tool the call names is visible in the published inventory — one that is not is
 * `unsupported`, told apart from nothing the agent cannot see — and its arguments match the tool's published input
 * schema, or the call is `invalid_arguments` with the places that fail it (never what they held).
 */
import type { AgentToolInventoryEntry, ToolCallPayload } from '@lineup/shared/protocol';
import { matchesSchema, refusalOf, type SchemaIssue } from './schema-validator.js';

/** `unsupported` or `invalid_arguments` for `call` against its tool's `entry`; `null` when it may go on. */
export function checkTool(
  call: ToolCallPayload,
  entry: AgentToolInventoryEntry | undefined,
): 'unsupported' | 'invalid_arguments' | null {
  if (entry === undefined) return 'unsupported';
  return matchesSchema(entry.input_schema, call.arguments) ? null : 'invalid_arguments';
}

/** Where `call`'s arguments fail `entry`'s input schema: the places named in the refusal, and their issues. */
export function argumentsRefusal(
  call: ToolCallPayload,
  entry: AgentToolInventoryEntry,
): { readonly places: string; readonly issues: readonly SchemaIssue[] } {
  return refusalOf(entry.input_schema, call.arguments, 'payload.arguments', '(arguments)');
}
