/**
 * The web host's capabilities as the runtime sees them: every declaration is accepted by the registry and lands
 * in the inventory; the handlers do what they say with a stand-in window and document (the browser paths — a
 * real tab, the clipboard, the file chooser, a download — are proven in Chromium by e2e/capabilities.spec.ts),
 * and refuse with stable codes.
 */
import 'fake-indexeddb/auto';
import { AppRegistry, CapabilityError, openRuntimeDatabase, type ToolConsentQuestion } from '@lineup/runtime';
import { describe, expect, it, vi } from 'vitest';
import { ConsentQueue } from './consent.ts';
import {
  WEB_CAPABILITIES,
  type WebCapabilityEnvironment,
  webCapabilityHandlers,
} from './web-capabilities.ts';

const context = { conversationId: 'conv_1', callId: 'call_1', signal: new AbortController().signal };

function environment(overrides: { clipboard?: unknown } = {}) {
  const open = vi.fn();
  const clicked: { href: string; download: string }[] = [];
  const body = { append: vi.fn() };
  const document = {
    body,
    createElement: () => {
      const link = {
        href: '',
        download: '',
        rel: '',
        click: () => clicked.push({ href: link.href, download: link.download }),
        remove: vi.fn(),
      };
      return link;
    },
  };
  const window = { open, navigator: { clipboard: overrides.clipboard } };
  return { env: { window, document } as unknown as WebCapabilityEnvironment, open, clicked };
}

describe('WEB_CAPABILITIES', () => {
  it('are valid declarations the registry publishes, with their risks', async () => {
    const db = await openRuntimeDatabase('web-capabilities');
    const registry = new AppRegistry(db);
    expect(await registry.declareCapabilities(WEB_CAPABILITIES)).toBe(true);
    expect((await registry.inventory()).capabilities).toEqual([
      { name: 'app.open_url', version: '1.0', risk: 'user_confirmation' },
      { name: 'artifact.save', version: '1.0', risk: 'user_confirmation' },
      { name: 'clipboard.write', version: '1.0', risk: 'user_confirmation' },
      { name: 'device.pick_file', version: '1.0', risk: 'system_permission' },
    ]);
    expect(await registry.declareCapabilities(WEB_CAPABILITIES)).toBe(false);
    db.close();
  });

  it('has a handler for every declaration, and nothing else', () => {
    expect(Object.keys(webCapabilityHandlers(environment().env)).sort()).toEqual(
      WEB_CAPABILITIES.map((capability) => capability.name).sort(),
    );
  });
});

describe('handlers', () => {
  it('app.open_url opens http(s) in a new tab without an opener, and refuses other schemes', async () => {
    const { env, open } = environment();
    const handlers = webCapabilityHandlers(env);
    expect(await handlers['app.open_url']?.({ url: 'https://example.com/docs?a=1' }, context)).toEqual({
      opened: true,
    });
    expect(open).toHaveBeenCalledWith('https://example.com/docs?a=1', '_blank', 'noopener,noreferrer');
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
      await expect(
        Promise.resolve().then(() => handlers['app.open_url']?.({ url }, context)),
      ).rejects.toMatchObject({ code: 'unsupported_url' });
    }
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('app.open_url says popup_blocked instead of pretending, when no press of the user is behind it', async () => {
    const { env, open } = environment();
    (env.window.navigator as { userActivation?: unknown }).userActivation = { isActive: false };
    await expect(
      Promise.resolve().then(() =>
        webCapabilityHandlers(env)['app.open_url']?.({ url: 'https://example.com' }, context),
      ),
    ).rejects.toMatchObject({ code: 'popup_blocked' });
    expect(open).not.toHaveBeenCalled();
  });

  it('clipboard.write writes the text, and says why when the browser cannot or will not', async () => {
    const writeText = vi.fn(async () => {});
    const handlers = webCapabilityHandlers(environment({ clipboard: { writeText } }).env);
    expect(await handlers['clipboard.write']?.({ text: '你好 hello' }, context)).toEqual({ written: true });
    expect(writeText).toHaveBeenCalledWith('你好 hello');
    const none = webCapabilityHandlers(environment().env);
    await expect(
      Promise.resolve().then(() => none['clipboard.write']?.({ text: 'x' }, context)),
    ).rejects.toThrow(CapabilityError);
    const refusing = webCapabilityHandlers(
      environment({ clipboard: { writeText: async () => Promise.reject(new Error('NotAllowedError')) } }).env,
    );
    await expect(refusing['clipboard.write']?.({ text: 'x' }, context)).rejects.toMatchObject({
      code: 'clipboard_refused',
    });
  });

  it('artifact.save downloads the content under the given name and reports its size in bytes', async () => {
    const { env, clicked } = environment();
    const result = await webCapabilityHandlers(env)['artifact.save']?.(
      { filename: 'notes.md', content: '# 标题\n', media_type: 'text/markdown' },
      context,
    );
    expect(result).toEqual({ saved: true, bytes: new TextEncoder().encode('# 标题\n').length });
    expect(clicked).toEqual([{ href: expect.stringMatching(/^blob:/), download: 'notes.md' }]);
  });
});

describe('ConsentQueue', () => {
  const request = (signal = new AbortController().signal) => ({
    conversationId: 'conv_1',
    callId: `call_${Math.random()}`,
    origin: { kind: 'agent' as const },
    capability: {
      name: 'app.open_url',
      version: '1.0',
      risk: 'user_confirmation' as const,
      description: 'x',
    },
    reason: 'r',
    arguments: {},
    expiresAt: Date.now() + 60_000,
    rememberable: true,
    extraStep: false,
    signal,
  });

  it('asks one question at a time, in order, and answers the current one', async () => {
    const queue = new ConsentQueue();
    const changes = vi.fn();
    queue.subscribe(changes);
    const first = request();
    const second = request();
    const a = queue.confirm(first);
    const b = queue.confirm(second);
    expect(queue.current).toEqual({ kind: 'capability', request: first });
    expect(queue.waiting).toBe(1);
    queue.answer({ decision: 'allow', remember: true });
    expect(await a).toEqual({ decision: 'allow', remember: true });
    expect(queue.current).toEqual({ kind: 'capability', request: second });
    queue.answer({ decision: 'deny' });
    expect(await b).toEqual({ decision: 'deny' });
    expect(queue.current).toBeNull();
    expect(changes).toHaveBeenCalledTimes(4);
  });

  it('a question whose call expires leaves by itself, dismissed; so does everything on dismissAll', async () => {
    const queue = new ConsentQueue();
    const expiry = new AbortController();
    const expiring = queue.confirm(request(expiry.signal));
    const other = queue.confirm(request());
    expiry.abort();
    expect(await expiring).toEqual({ decision: 'dismiss' });
    expect(queue.waiting).toBe(0);
    queue.dismissAll();
    expect(await other).toEqual({ decision: 'dismiss' });
    expect(queue.current).toBeNull();
    const aborted = new AbortController();
    aborted.abort();
    expect(await queue.confirm(request(aborted.signal))).toEqual({ decision: 'dismiss' });
    expect(queue.current).toBeNull();
  });

  it('queues a tool question beside capability requests, in order; the page going abandons it (asked again later)', async () => {
    const queue = new ConsentQueue();
    const capability = queue.confirm(request());
    const signal = new AbortController().signal;
    const question = { callId: 'call_1', signal } as unknown as ToolConsentQuestion;
    const tool = queue.confirmTool(question);
    const later = queue.confirmTool({ callId: 'call_2', signal } as unknown as ToolConsentQuestion);
    expect(queue.current?.kind).toBe('capability');
    expect(queue.waiting).toBe(2);
    queue.answer({ decision: 'deny' });
    expect(await capability).toEqual({ decision: 'deny' });
    expect(queue.current).toEqual({ kind: 'tool', question });
    // A press meant for another question answers nothing.
    queue.answer({ decision: 'allow' }, { kind: 'tool', question: { ...question } });
    expect(queue.current).toEqual({ kind: 'tool', question });
    queue.answer({ decision: 'allow', remember: true }, queue.current ?? undefined);
    expect(await tool).toEqual({ decision: 'allow', remember: true });
    queue.dismissAll();
    expect(await later).toEqual({ decision: 'abandon' });
    expect(queue.current).toBeNull();
  });
});
