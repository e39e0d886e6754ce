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

  it("keeps a sign-in's registration and tokens across a reload; a token given replaces it; sign-out forgets it", async () => {
    const name = `credentials-${databases++}`;
    const first = new ServerCredentials();
    await first.load(name);
    const signIn = first.signInTo(A);
    expect(first.kind(A)).toBe('oauth');
    expect(signIn.signedIn).toBe(false);
    await signIn.saveClientInformation({ client_id: 'client-1' } as never);
    await signIn.saveTokens({ access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' } as never);
    expect(first.auth(A)).toBe(signIn);
    expect(first.auth(B)).not.toBe(signIn);
    first.close();
    const again = new ServerCredentials();
    await again.load(name);
    const kept = again.signInTo(A);
    expect(kept.signedIn).toBe(true);
    expect(kept.tokens()).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-1' });
    expect(kept.clientInformation()).toMatchObject({ client_id: 'client-1' });
    // A request found it no longer valid (a refresh did not help): to sign in again; no window opens by itself.
    await kept.redirectToAuthorization(new URL('http://127.0.0.1:4000/auth'));
    expect(again.kind(A)).toBe('expired');
    expect(kept.tokens()).toBeUndefined();
    await again.set(A, 'given-token');
    expect(again.kind(A)).toBe('token');
    again.signInTo(B);
    await again.remove(B);
    expect(again.kind(B)).toBeUndefined();
    again.close();
  });

  it('marks a token the server refused (401, 403) until a call it takes or a new token; a sign-in or no token is not marked', async () => {
    const credentials = new ServerCredentials();
    await credentials.load(`credentials-${databases++}`);
    let changes = 0;
    const stop = credentials.onChange(() => {
      changes++;
    });
    const refused = (httpStatus: number) =>
      ({ status: 'refused', phase: 'call', httpStatus, reason: 'x' }) as const;
    const ok = { status: 'ok', result: { content: [] } } as const;
    // No token given: a 401 is the server asking, not a token refused.
    credentials.callEnded(A, refused(401), 1, undefined);
    expect(credentials.refusedAt(A)).toBeUndefined();
    await credentials.set(A, 'token-a');
    await credentials.set(B, 'token-b');
    credentials.callEnded(A, refused(401), 2, 'token-a');
    credentials.callEnded(B, refused(403), 3, 'token-b');
    expect([credentials.refusedAt(A), credentials.refusedAt(B)]).toEqual([2, 3]);
    // Another refusal (a 404, a 5xx, a timeout) says nothing of the token.
    credentials.callEnded(A, refused(404), 4, 'token-a');
    credentials.callEnded(A, { status: 'timeout' }, 5, 'token-a');
    // A refusal of a call made with a token since replaced says nothing of the one kept now.
    credentials.callEnded(B, refused(401), 5, 'token-old');
    expect(credentials.refusedAt(B)).toBe(3);
    expect(credentials.refusedAt(A)).toBe(2);
    // A call it takes clears it; so do a new token and forgetting the token.
    credentials.callEnded(A, ok, 6, 'token-a');
    expect(credentials.refusedAt(A)).toBeUndefined();
    await credentials.set(B, 'token-b2');
    expect(credentials.refusedAt(B)).toBeUndefined();
    // A replacement that failed puts the refused token back: so is the mark.
    await credentials.set(B, 'token-b');
    expect(credentials.refusedAt(B)).toBe(3);
    await credentials.set(B, 'token-b2');
    credentials.callEnded(A, refused(401), 7, 'token-a');
    await credentials.remove(A);
    expect(credentials.refusedAt(A)).toBeUndefined();
    expect(changes).toBe(4);
    stop();
    await credentials.set(A, 'token-a');
    credentials.callEnded(A, refused(401), 8, 'token-a');
    expect(changes).toBe(4);
    credentials.close();
  });
});
