/**
 * The helpers that several test files of @lineup/runtime share, written once. (Envelopes as a test agent sends
 * them are in `envelopes.ts`, app manifests in `manifests.ts`.)
 */
import type { ToolCallPayload } from '@lineup/shared/protocol';

/** The payload of a `lineup.v1.tool.call` for `tool`, against inventory revision `inventory-1`. */
export function toolCall(
  call_id: string,
  tool: string,
  args: ToolCallPayload['arguments'] = {},
): ToolCallPayload {
  return { call_id, inventory_revision: 'inventory-1', tool, arguments: args };
}
