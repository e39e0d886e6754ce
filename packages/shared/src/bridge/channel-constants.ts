/**
 * The bounds and id patterns both iframe channels share, without zod (`channel.ts` builds its schemas from them).
 */

/** UTF-16 code units of an instance id (seed 000 §4.1). */
export const MAX_INSTANCE_ID_LENGTH = 128;
/** UTF-16 code units of a message-local id (an invocation or request id). */
export const MAX_MESSAGE_ID_LENGTH = 128;

/** Bounds shared by both channels (the constants above, by name: a page's bundler inlines those it reads). */
export const BRIDGE_LIMITS = /* @__PURE__ */ Object.freeze({
  maxInstanceIdLength: MAX_INSTANCE_ID_LENGTH,
  maxMessageIdLength: MAX_MESSAGE_ID_LENGTH,
} as const);

/** seed 000 §4.1: `instance_id` is `[A-Za-z0-9._:-]{1,128}`. */
export const BRIDGE_INSTANCE_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** A message-local id (an invocation or request id): `[A-Za-z0-9._:-]`, 1 to 128 of them. */
export const BRIDGE_MESSAGE_ID_PATTERN = /^[A-Za-z0-9._:-]+$/;
