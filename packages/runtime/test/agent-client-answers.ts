/**
 * What the tests of the client's answers to a broken or hostile agent (`src/client/agent-client.answers.*.test.ts`)
 * share: a ready client, an `app.call` payload, and the frames the client sent after a point.
 */
import type { LineUpMessage } from '@lineup/shared/protocol';
import { expect, vi } from 'vitest';
import { setUp } from './agent-client.js';

/** The payload of an `app.call` of `app.open_url` that has not expired, with `extra` over it. */
export const appCall = (call_id: string, extra: object = {}) => ({
  call_id,
  capability: 'app.open_url',
  reason: 'Open the docs',
  expires_at: '2099-01-01T00:00:00Z',
  arguments: { url: 'https://example.com' },
  ...extra,
});

/** A ready client: the session started and the install's inventory row went out. */
export async function ready(options: Parameters<typeof setUp>[0] = {}) {
  const setup = await setUp(options);
  await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
  await vi.waitFor(() => expect(setup.frames).toHaveLength(1));
  return setup;
}

/** The frames the client sends after `count` others, once there are `expected` of them. */
export async function answersAfter(frames: LineUpMessage[], count: number, expected: number) {
  await vi.waitFor(() => expect(frames.length).toBeGreaterThanOrEqual(count + expected));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return frames.slice(count).map((frame) => ({ type: frame.type, payload: frame.payload }));
}
