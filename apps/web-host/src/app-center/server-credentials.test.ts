import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_LENGTH, ServerCredentials, tokenProblem } from './server-credentials.ts';

const A = 'http://127.0.0.1:3001/mcp';
const B = 'https://mcp.example.com/mcp';
let databases = 0;

describe('ServerCredentials', () => {
  it.each([
    ['', /empty/],
    ['has spaces', /no spaces/],
    ['line\nbreak', /no spaces/],
    ['é-accent', /no spaces/],
    ['x'.repeat(MAX_TOKEN_LENGTH + 1), /at most 4096/],
  ])('refuses %j as a token, saying why', (token, reason) => {
    expect(tokenProblem(token)).toMatch(reason);
  });

  it('takes the bearer token syntax', () => {
    for (const token of ['abc', 'eyJhbGciOi.J9.x-_~+/', 'dG9rZW4=', 'x'.repeat(MAX_TOKEN_LENGTH)])
      expect(tokenProblem(token)).toBeUndefined();
  });

  it("keeps each server's token across a reload, gives each URL its own and no other, and forgets it", async () => {
    const name = `credentials-${databases++}`;
    const first = new ServerCredentials();
    await first.load(name);
    await first.set(A, 'token-a');
    await expect(first.set(B, 'not a token')).rejects.toThrow(TypeError);
    expect(first.has(B)).toBe(false);
    first.close();
    const again = new ServerCredentials();
    await again.load(name);
    expect(again.token(A)).toBe('token-a');
    const auth = (url: string) => again.auth(url) as { token(): Promise<string | undefined> };
    expect(await auth(A).token()).toBe('token-a');
    expect(await auth(B).token()).toBeUndefined();
    expect(await auth(`${A}/other`).token()).toBeUndefined();
    await again.remove(A);
    expect(await auth(A).token()).toBeUndefined();
    again.close();
    const last = new ServerCredentials();
    await last.load(name);
    expect(last.has(A)).toBe(false);
    last.close();
  });
});
