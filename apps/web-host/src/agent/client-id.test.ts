import { describe, expect, it } from 'vitest';
import { CLIENT_ID_KEY, CLIENT_ID_PATTERN, profileClientId } from './client-id.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('profileClientId', () => {
  it('makes a random id once and keeps it for every later page of the profile', () => {
    const storage = memoryStorage();
    const first = profileClientId(storage);
    expect(first).toMatch(CLIENT_ID_PATTERN);
    expect(storage.items.get(CLIENT_ID_KEY)).toBe(first);
    expect(profileClientId(storage)).toBe(first);
  });

  it('gives two profiles different ids', () => {
    const ids = new Set(Array.from({ length: 200 }, () => profileClientId(memoryStorage())));
    expect(ids.size).toBe(200);
  });

  it('replaces a kept value that is not of its shape', () => {
    for (const bad of ['web-host', 'web-host-XYZ', 'web-host-0123456789abcdef0', 'evil:o1', '']) {
      const storage = memoryStorage({ [CLIENT_ID_KEY]: bad });
      const id = profileClientId(storage);
      expect([bad, id]).toEqual([bad, expect.stringMatching(CLIENT_ID_PATTERN)]);
      expect(storage.items.get(CLIENT_ID_KEY)).toBe(id);
    }
  });

  it('still gives an id of its shape when storage throws or is missing', () => {
    const throwing = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    };
    expect(profileClientId(throwing)).toMatch(CLIENT_ID_PATTERN);
    expect(profileClientId(undefined)).toMatch(CLIENT_ID_PATTERN);
  });
});
