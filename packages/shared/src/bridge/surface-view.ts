/**
 * The two messages an MCP App view's frame sends its host besides its JSON-RPC (`lineup.surface.v1`, surface.ts):
 * `storage`, the whole of the view's `localStorage` after a change (its state, the host's to keep), and `key`, the
 * user's Escape in the view (which the host, seeing no key of the frame, needs to leave a mode it gave the view).
 * Only a host that started a view (`protocol: "mcp_app"`) reads them; the plain Surface parsers refuse both types.
 */
import { z } from 'zod';
import { LineUpProtocolError } from '../errors/errors.js';
import { messageBudget, parseShape } from '../json/parse.js';
import { assertInstance, BridgeInstanceIdSchema, namespaceGate } from './channel.js';
import {
  MCP_VIEW_CHANNEL_LIMITS,
  McpViewStorageSchema,
  SURFACE_CHANNEL_LIMITS,
  SURFACE_NAMESPACE,
} from './surface.js';

const namespace = z.literal(SURFACE_NAMESPACE);

/**
 * Everything an MCP App view's `localStorage` holds after a change (frame → host; `start` said
 * `protocol: "mcp_app"`): the whole of it, never a difference, so the host keeps what the view last had.
 */
export const SurfaceStorageMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('storage'),
    instance_id: BridgeInstanceIdSchema,
    entries: McpViewStorageSchema,
  })
  .meta({ id: 'SurfaceStorageMessage' });

/**
 * The user pressed Escape in an MCP App view (frame → host): a view's frame tells its host, which sees no key the
 * frame has, so that Escape always leaves a mode the host gave the view (full screen) however the view handles keys.
 */
export const SurfaceKeyMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('key'),
    instance_id: BridgeInstanceIdSchema,
    key: z.literal('Escape'),
  })
  .meta({ id: 'SurfaceKeyMessage' });

export type SurfaceStorageMessage = z.infer<typeof SurfaceStorageMessageSchema>;
export type SurfaceKeyMessage = z.infer<typeof SurfaceKeyMessageSchema>;

const STORAGE = namespaceGate(SURFACE_NAMESPACE, SurfaceStorageMessageSchema);
// Each code unit is at most 6 bytes as JSON (`\u0000`), with 6 more per item for its brackets, quotes and commas.
const STORAGE_BUDGET = messageBudget(
  MCP_VIEW_CHANNEL_LIMITS.maxStorageLength * 6 +
    MCP_VIEW_CHANNEL_LIMITS.maxStorageItems * 8 +
    SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes,
);

/**
 * Validates a `storage` message of an MCP App view's frame, for the instance the host mounted: the whole of the
 * view's `localStorage` as `[key, value]` pairs (`McpViewStorageSchema`). Only a host that started a view
 * (`protocol: "mcp_app"`) reads these. Returns a deep-frozen copy; throws `LineUpProtocolError`.
 */
export function parseSurfaceStorageMessage(
  input: unknown,
  expectedInstanceId?: string,
): SurfaceStorageMessage {
  return assertInstance(
    parseShape(STORAGE, input, { budget: STORAGE_BUDGET }, LineUpProtocolError),
    expectedInstanceId,
  );
}

const KEY = namespaceGate(SURFACE_NAMESPACE, SurfaceKeyMessageSchema);
const KEY_BUDGET = messageBudget(SURFACE_CHANNEL_LIMITS.maxEnvelopeBytes);

/**
 * Validates a `key` message of an MCP App view's frame (the user pressed Escape in it), for the instance the host
 * mounted. Only a host that started a view reads these. Returns a deep-frozen copy; throws `LineUpProtocolError`.
 */
export function parseSurfaceKeyMessage(input: unknown, expectedInstanceId?: string): SurfaceKeyMessage {
  return assertInstance(
    parseShape(KEY, input, { budget: KEY_BUDGET }, LineUpProtocolError),
    expectedInstanceId,
  );
}
