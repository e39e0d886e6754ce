/**
 * This browser profile's client id: what names the host to an agent (`sender.id`) and starts every envelope id it
 * sends (`<client id>:o<outbox row>`). The outbox rows of every profile count from 1, so an id of `web-host` alone
 * made two users' envelopes look alike (`web-host:o2` from both) to an agent that de-duplicates by envelope id: the
 * second user's tool result was acknowledged and dropped. A random part per profile, kept in its `localStorage` (every
 * tab of the profile and every reload use the same, so a resent envelope keeps its id), makes them distinct.
 */

/** Where the profile keeps its client id. */
export const CLIENT_ID_KEY = 'lineup-host-client-id';

/** `web-host-` and 16 lowercase hex digits (64 random bits). */
export const CLIENT_ID_PATTERN = /^web-host-[0-9a-f]{16}$/;

function freshClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `web-host-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The profile's client id, made and kept on first use; one that is not of our shape is replaced. Without usable
 * storage (a browser that refuses it), a fresh id for this page: distinct from every other profile's, but a reload
 * then resends the outbox under new ids (the agent still tells results apart by `call_id`).
 */
export function profileClientId(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined): string {
  try {
    const kept = storage?.getItem(CLIENT_ID_KEY);
    if (kept !== null && kept !== undefined && CLIENT_ID_PATTERN.test(kept)) return kept;
    const made = freshClientId();
    storage?.setItem(CLIENT_ID_KEY, made);
    return made;
  } catch {
    return freshClientId();
  }
}

/** The page's `localStorage`, or undefined where reading it throws (storage blocked). */
export function pageStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
