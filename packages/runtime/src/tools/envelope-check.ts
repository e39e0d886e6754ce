/**
 * Step 1 of the pipeline, what is left of it once the call reaches the runtime. The agent client already took the
 * frame as a well-formed `lineup.v1` envelope travelling agent → client, from the agent of this session, in a
 * conversation of that session (`client/inbound.ts`: anything else is answered there and goes no further). This
 * step checks the inventory revision the call was made against: only the one published now is current.
 */
import type { ToolCallPayload } from '@lineup/shared/protocol';

/** `stale_inventory` when `call` names another revision than `published`; `null` when it may go on. */
export function checkRevision(call: ToolCallPayload, published: string): 'stale_inventory' | null {
  return call.inventory_revision === published ? null : 'stale_inventory';
}
