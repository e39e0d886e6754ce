/**
 * What the two iframe channels share (DESIGN.md "two iframe channels"; seed 000 §2.4): instance ids, the
 * namespace gate that keeps one channel's messages out of the other's parser, and the instance check.
 *
 * Every message is validated on arrival, in this order: the caller proves `event.source` is the frame it
 * created (a parser cannot see the source window), then `parseShape` proves safe JSON within the channel's
 * byte budget, then the namespace, then the strict shape (type, names, sizes), then the instance id.
 */
import { z } from 'zod';
import { LineUpProtocolError } from '../errors/errors.js';
import { createIssue, type UIIssueCode } from '../errors/issues.js';
import { BRIDGE_INSTANCE_ID_PATTERN, BRIDGE_LIMITS, BRIDGE_MESSAGE_ID_PATTERN } from './channel-constants.js';

export { BRIDGE_INSTANCE_ID_PATTERN, BRIDGE_LIMITS } from './channel-constants.js';

export const BridgeInstanceIdSchema = z
  .string()
  .min(1)
  .max(BRIDGE_LIMITS.maxInstanceIdLength)
  .regex(BRIDGE_INSTANCE_ID_PATTERN)
  .meta({ id: 'BridgeInstanceId', description: 'seed 000 §4.1: [A-Za-z0-9._:-]{1,128}.' });

/**
 * An id one side chooses to pair a reply with its request (a tool invocation, a session data write, a UI
 * action). Opaque, and meaningful only on this channel of this instance.
 */
export const BridgeMessageIdSchema = z
  .string()
  .min(1)
  .max(BRIDGE_LIMITS.maxMessageIdLength)
  .regex(BRIDGE_MESSAGE_ID_PATTERN)
  .meta({ id: 'BridgeMessageId', description: '[A-Za-z0-9._:-]{1,128}, chosen by the sender.' });

const { hasOwn } = Object;
const { isArray } = Array;

/**
 * `schema`, preceded by a namespace check: a message of another channel fails on `namespace` itself, before
 * its `type` is looked up, so a Surface message can never be read as a MiniApp message or the reverse
 * (DESIGN.md "A Surface never gets this channel"). Anything but an object is left to `schema` to report.
 */
export function namespaceGate<T extends z.ZodType>(namespace: string, schema: T) {
  return z.preprocess((input, context) => {
    if (typeof input !== 'object' || input === null || isArray(input)) return input;
    if (!hasOwn(input, 'namespace')) {
      context.addIssue({
        code: 'custom',
        path: ['namespace'],
        message: 'This property is required.',
        params: { code: 'missing_property' satisfies UIIssueCode },
      });
    } else if ((input as { readonly namespace: unknown }).namespace !== namespace) {
      context.addIssue({
        code: 'custom',
        path: ['namespace'],
        message: `Only messages of the ${namespace} channel are accepted here.`,
        params: { code: 'invalid_value' satisfies UIIssueCode },
      });
    }
    return input;
  }, schema);
}

/**
 * Throws unless a parsed message names the expected instance: a frame speaks only for the one instance the
 * host mounted in it (seed 000 §2.4; seed 003 §2.3 "不能 … 跨会话操控任意 instance_id").
 */
export function assertInstance<T extends object>(message: T, expectedInstanceId: string | undefined): T {
  // A message that names no instance (a Surface frame's `ready`) is bound by the caller's source check.
  if (
    expectedInstanceId !== undefined &&
    'instance_id' in message &&
    message.instance_id !== expectedInstanceId
  ) {
    throw new LineUpProtocolError([
      createIssue(['instance_id'], 'invalid_value', 'This message belongs to another instance.'),
    ]);
  }
  return message;
}
