import { describe, expect, it } from 'vitest';
import {
  AgentLinkGate,
  type AgentPlan,
  checkAgentUrl,
  isAgentOrigin,
  isLoopbackHost,
  type KeyValueStorage,
  MAX_AGENT_URL_LENGTH,
  MAX_REMEMBERED_AGENTS,
  planAgent,
  REMEMBERED_AGENTS_KEY,
  RememberedAgents,
  shownAgentUrl,
  withoutAgentLink,
} from './agent-link.ts';
import { AGENT_LINK_TEXTS } from './agent-link-texts.ts';

/** A `localStorage` stand-in; `refuse` makes every write (or read) throw, as a full or blocked storage does. */
function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  const storage = {
    refuseWrites: false,
    refuseReads: false,
    values,
    getItem(key: string) {
      if (storage.refuseReads) throw new Error('SecurityError');
      return values.get(key) ?? null;
    },
    setItem(key: string, value: string) {
      if (storage.refuseWrites) throw new Error('QuotaExceededError');
      values.set(key, value);
    },
  } satisfies KeyValueStorage & Record<string, unknown>;
  return storage;
}

const never = () => false;

describe('isLoopbackHost', () => {
  it('takes localhost, 127.0.0.0/8 and [::1]', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.255.254', '127.1.2.3', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
  });

  it('takes nothing else: other addresses, look-alike names, mapped IPv6, .localhost names', () => {
    for (const host of [
      'example.com',
      '10.0.0.1',
      '128.0.0.1',
      '127.0.0.1.example.com',
      'localhost.example.com',
      'app.localhost',
      '[::ffff:7f00:1]',
      '[::2]',
      '0.0.0.0',
      '127.0.0.256',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('checkAgentUrl', () => {
  it('allows wss:// to any host and ws:// to this computer, with the origin the user is shown', () => {
    expect(checkAgentUrl('wss://agent.example.com/lineup')).toEqual({
      ok: true,
      url: 'wss://agent.example.com/lineup',
      origin: 'wss://agent.example.com',
    });
    expect(checkAgentUrl('ws://127.0.0.1:8787/agent')).toEqual({
      ok: true,
      url: 'ws://127.0.0.1:8787/agent',
      origin: 'ws://127.0.0.1:8787',
    });
    expect(checkAgentUrl('ws://LOCALHOST:9000')).toEqual({
      ok: true,
      url: 'ws://localhost:9000/',
      origin: 'ws://localhost:9000',
    });
    expect(checkAgentUrl('ws://[0:0:0:0:0:0:0:1]:4000/a?b=c')).toEqual({
      ok: true,
      url: 'ws://[::1]:4000/a?b=c',
      origin: 'ws://[::1]:4000',
    });
  });

  it('reads the host the way the browser dials it (numeric IPv4 forms, default ports, IDN)', () => {
    // 127.1 and 0x7f.1 are 127.0.0.1 to the URL parser, so they are loopback; the default port is no part of the origin.
    expect(checkAgentUrl('ws://127.1/agent')).toMatchObject({ ok: true, origin: 'ws://127.0.0.1' });
    expect(checkAgentUrl('ws://0x7f.1:80/agent')).toMatchObject({ ok: true, origin: 'ws://127.0.0.1' });
    expect(checkAgentUrl('wss://agent.example.com:443/')).toMatchObject({
      origin: 'wss://agent.example.com',
    });
    // A Cyrillic look-alike of "agent" is shown as the browser dials it (punycode), never as the look-alike.
    expect(checkAgentUrl('wss://\u0430gent.example/')).toMatchObject({
      ok: true,
      origin: 'wss://xn--gent-43d.example',
    });
  });

  it('refuses ws:// to any other host', () => {
    for (const url of [
      'ws://example.com/agent',
      'ws://10.0.0.5:8787/agent',
      'ws://127.0.0.1.nip.io/agent',
      'ws://localhost.example.com/',
    ])
      expect(checkAgentUrl(url), url).toEqual({ ok: false, problem: 'insecure' });
  });

  it('refuses what is not a WebSocket URL, with the reason', () => {
    expect(checkAgentUrl('not a url')).toEqual({ ok: false, problem: 'not_a_url' });
    expect(checkAgentUrl('//example.com/agent')).toEqual({ ok: false, problem: 'not_a_url' });
    for (const url of [
      'https://example.com/agent',
      'http://127.0.0.1/',
      'javascript:alert(1)',
      'localhost:8787',
    ])
      expect(checkAgentUrl(url), url).toEqual({ ok: false, problem: 'not_websocket' });
    expect(checkAgentUrl('wss://user:secret@agent.example.com/')).toEqual({
      ok: false,
      problem: 'credentials',
    });
    expect(checkAgentUrl('wss://trusted.example@evil.example/')).toEqual({
      ok: false,
      problem: 'credentials',
    });
    expect(checkAgentUrl('wss://agent.example.com/#x')).toEqual({ ok: false, problem: 'fragment' });
    expect(checkAgentUrl('wss://agent.example.com/#')).toEqual({ ok: false, problem: 'fragment' });
    const long = `wss://agent.example.com/${'a'.repeat(MAX_AGENT_URL_LENGTH)}`;
    expect(checkAgentUrl(long)).toEqual({ ok: false, problem: 'too_long' });
  });

  it('knows an origin from a URL', () => {
    expect(isAgentOrigin('ws://127.0.0.1:8787')).toBe(true);
    expect(isAgentOrigin('wss://agent.example.com')).toBe(true);
    expect(isAgentOrigin('ws://127.0.0.1:8787/agent')).toBe(false);
    expect(isAgentOrigin('wss://agent.example.com:443')).toBe(false);
    expect(isAgentOrigin('ws://example.com')).toBe(false);
    expect(isAgentOrigin('https://example.com')).toBe(false);
  });
});

describe('planAgent', () => {
  it('runs the demo agent when nothing names one, or the link is empty', () => {
    expect(planAgent({ search: '', remembered: never })).toEqual({ kind: 'demo' });
    expect(planAgent({ search: '?agent=', remembered: never })).toEqual({ kind: 'demo' });
    expect(planAgent({ search: '?dev=x', configured: '', remembered: never })).toEqual({ kind: 'demo' });
  });

  it('dials the configured agent without asking', () => {
    expect(planAgent({ search: '', configured: 'wss://agent.example.com/a', remembered: never })).toEqual({
      kind: 'configured',
      url: 'wss://agent.example.com/a',
      origin: 'wss://agent.example.com',
    });
  });

  it('holds the configured agent to the same transport rule', () => {
    expect(planAgent({ search: '', configured: 'ws://agent.example.com/a', remembered: never })).toEqual({
      kind: 'refused',
      source: 'configured',
      given: 'ws://agent.example.com/a',
      problem: 'insecure',
    });
  });

  it('asks about a link’s agent unless its origin is remembered', () => {
    const search = `?agent=${encodeURIComponent('ws://127.0.0.1:8787/agent')}`;
    expect(planAgent({ search, remembered: never })).toEqual({
      kind: 'link',
      url: 'ws://127.0.0.1:8787/agent',
      origin: 'ws://127.0.0.1:8787',
      remembered: false,
    });
    const asked: string[] = [];
    const plan = planAgent({
      search,
      remembered: (origin) => {
        asked.push(origin);
        return origin === 'ws://127.0.0.1:8787';
      },
    });
    expect(plan).toMatchObject({ kind: 'link', remembered: true });
    expect(asked).toEqual(['ws://127.0.0.1:8787']);
    // Another port is another origin: it asks.
    expect(
      planAgent({
        search: '?agent=ws://127.0.0.1:9999/agent',
        remembered: (o) => o === 'ws://127.0.0.1:8787',
      }),
    ).toMatchObject({ kind: 'link', remembered: false });
  });

  it('lets a link override the configured agent only through the question', () => {
    const configured = 'wss://agent.example.com/lineup';
    expect(
      planAgent({ search: '?agent=wss://other.example/x', configured, remembered: never }),
    ).toMatchObject({
      kind: 'link',
      origin: 'wss://other.example',
    });
    // The configured URL itself, repeated in a link, is the host's own agent.
    expect(
      planAgent({ search: `?agent=${encodeURIComponent(configured)}`, configured, remembered: never }),
    ).toEqual({ kind: 'configured', url: configured, origin: 'wss://agent.example.com' });
  });

  it('refuses a link that breaks a rule, without a question, even when its origin is remembered', () => {
    const always = () => true;
    const refused = (search: string, framed = false): AgentPlan =>
      planAgent({ search, remembered: always, framed });
    expect(refused('?agent=ws://example.com/agent')).toEqual({
      kind: 'refused',
      source: 'link',
      given: 'ws://example.com/agent',
      problem: 'insecure',
    });
    expect(refused('?agent=https://example.com')).toMatchObject({
      kind: 'refused',
      problem: 'not_websocket',
    });
    expect(refused('?agent=ws://127.0.0.1:1/a&agent=wss://b.example/')).toMatchObject({
      kind: 'refused',
      problem: 'several',
      given: 'ws://127.0.0.1:1/a',
    });
    expect(refused('?agent=ws://127.0.0.1:1/a', true)).toMatchObject({ kind: 'refused', problem: 'framed' });
  });
});

describe('RememberedAgents', () => {
  it('keeps what the user allowed across instances (one browser profile), oldest first', () => {
    const storage = memoryStorage();
    const first = new RememberedAgents(storage);
    expect(first.remember('ws://127.0.0.1:8787')).toBe(true);
    expect(first.remember('wss://agent.example.com')).toBe(true);
    expect(first.remember('ws://127.0.0.1:8787')).toBe(true);
    expect(JSON.parse(storage.values.get(REMEMBERED_AGENTS_KEY) ?? '')).toEqual([
      'wss://agent.example.com',
      'ws://127.0.0.1:8787',
    ]);
    const second = new RememberedAgents(storage);
    expect(second.has('ws://127.0.0.1:8787')).toBe(true);
    expect(second.has('ws://127.0.0.1:8788')).toBe(false);
    expect(second.forget('ws://127.0.0.1:8787')).toBe(true);
    expect(new RememberedAgents(storage).origins).toEqual(['wss://agent.example.com']);
  });

  it('refuses to remember what is not an agent origin', () => {
    const remembered = new RememberedAgents(memoryStorage());
    expect(() => remembered.remember('ws://example.com')).toThrow(/is not an agent origin/);
    expect(() => remembered.remember('ws://127.0.0.1:8787/agent')).toThrow(/is not an agent origin/);
    expect(remembered.origins).toEqual([]);
  });

  it('drops stored entries that are not agent origins, and reads garbage as nothing', () => {
    const stored = JSON.stringify([
      'ws://127.0.0.1:1',
      'ws://evil.example',
      42,
      'wss://a.example/path',
      'ws://127.0.0.1:1',
    ]);
    expect(new RememberedAgents(memoryStorage({ [REMEMBERED_AGENTS_KEY]: stored })).origins).toEqual([
      'ws://127.0.0.1:1',
    ]);
    expect(new RememberedAgents(memoryStorage({ [REMEMBERED_AGENTS_KEY]: '{"a":1}' })).origins).toEqual([]);
    expect(new RememberedAgents(memoryStorage({ [REMEMBERED_AGENTS_KEY]: 'not json' })).origins).toEqual([]);
  });

  it('keeps at most MAX_REMEMBERED_AGENTS, letting go of the oldest', () => {
    const remembered = new RememberedAgents(memoryStorage());
    for (let port = 1; port <= MAX_REMEMBERED_AGENTS + 2; port++)
      remembered.remember(`ws://127.0.0.1:${port}`);
    expect(remembered.origins).toHaveLength(MAX_REMEMBERED_AGENTS);
    expect(remembered.has('ws://127.0.0.1:1')).toBe(false);
    expect(remembered.has('ws://127.0.0.1:2')).toBe(false);
    expect(remembered.has(`ws://127.0.0.1:${MAX_REMEMBERED_AGENTS + 2}`)).toBe(true);
  });

  it('says when the browser refused to keep a change, and holds it for the page', () => {
    const storage = memoryStorage();
    storage.refuseWrites = true;
    const remembered = new RememberedAgents(storage);
    expect(remembered.remember('ws://127.0.0.1:8787')).toBe(false);
    expect(remembered.has('ws://127.0.0.1:8787')).toBe(true);
    expect(new RememberedAgents(null).remember('ws://127.0.0.1:8787')).toBe(false);
    storage.refuseReads = true;
    expect(new RememberedAgents(storage).origins).toEqual([]);
  });

  it('reads again on reload and tells its listeners only of a change', () => {
    const storage = memoryStorage();
    const remembered = new RememberedAgents(storage);
    let heard = 0;
    remembered.subscribe(() => heard++);
    remembered.reload();
    expect(heard).toBe(0);
    storage.values.set(REMEMBERED_AGENTS_KEY, JSON.stringify(['wss://a.example']));
    remembered.reload();
    expect(heard).toBe(1);
    expect(remembered.origins).toEqual(['wss://a.example']);
  });
});

describe('AgentLinkGate', () => {
  const link = (remembered = false): AgentPlan => ({
    kind: 'link',
    url: 'ws://127.0.0.1:8787/agent',
    origin: 'ws://127.0.0.1:8787',
    remembered,
  });

  it('asks, and may dial only after "Connect", which it remembers by origin', () => {
    const storage = memoryStorage();
    const gate = new AgentLinkGate(link(), new RememberedAgents(storage));
    expect(gate.state).toEqual({
      phase: 'asking',
      url: 'ws://127.0.0.1:8787/agent',
      origin: 'ws://127.0.0.1:8787',
    });
    expect(gate.mayDial).toBe(false);
    const phases: string[] = [];
    gate.subscribe(() => phases.push(gate.state.phase));
    gate.connect();
    expect(gate.state).toMatchObject({ phase: 'allowed', how: 'confirmed', kept: true });
    expect(gate.mayDial).toBe(true);
    expect(phases).toEqual(['allowed']);
    expect(new RememberedAgents(storage).has('ws://127.0.0.1:8787')).toBe(true);
    // A second answer changes nothing.
    gate.decline();
    expect(gate.state.phase).toBe('allowed');
  });

  it('never dials after "Don\'t connect", and remembers nothing', () => {
    const storage = memoryStorage();
    const gate = new AgentLinkGate(link(), new RememberedAgents(storage));
    gate.decline();
    expect(gate.state).toEqual({
      phase: 'declined',
      url: 'ws://127.0.0.1:8787/agent',
      origin: 'ws://127.0.0.1:8787',
    });
    expect(gate.mayDial).toBe(false);
    gate.connect();
    expect(gate.state.phase).toBe('declined');
    expect(storage.values.has(REMEMBERED_AGENTS_KEY)).toBe(false);
  });

  it('dials a remembered origin at once; forgetting it ends this page’s connection and asks next time', () => {
    const storage = memoryStorage();
    const remembered = new RememberedAgents(storage);
    remembered.remember('ws://127.0.0.1:8787');
    const gate = new AgentLinkGate(link(true), remembered);
    expect(gate.state).toMatchObject({ phase: 'allowed', how: 'remembered' });
    expect(gate.mayDial).toBe(true);
    gate.forget('ws://127.0.0.1:9999');
    expect(gate.state.phase).toBe('allowed');
    gate.forget('ws://127.0.0.1:8787');
    expect(gate.state.phase).toBe('forgotten');
    expect(gate.mayDial).toBe(false);
    const next = planAgent({
      search: '?agent=ws://127.0.0.1:8787/agent',
      remembered: (origin) => new RememberedAgents(storage).has(origin),
    });
    expect(new AgentLinkGate(next, new RememberedAgents(storage)).state.phase).toBe('asking');
  });

  it('follows a forget made in another tab (the storage event)', () => {
    const storage = memoryStorage();
    const remembered = new RememberedAgents(storage);
    remembered.remember('ws://127.0.0.1:8787');
    const gate = new AgentLinkGate(link(true), remembered);
    new RememberedAgents(storage).forget('ws://127.0.0.1:8787');
    expect(gate.state.phase).toBe('allowed');
    gate.reload();
    expect(gate.state.phase).toBe('forgotten');
    expect(gate.remembered.origins).toEqual([]);
  });

  it('dials a configured agent, and none that was refused or when there is none', () => {
    const remembered = new RememberedAgents(memoryStorage());
    expect(
      new AgentLinkGate(
        { kind: 'configured', url: 'wss://a.example/', origin: 'wss://a.example' },
        remembered,
      ).mayDial,
    ).toBe(true);
    expect(new AgentLinkGate({ kind: 'demo' }, remembered).mayDial).toBe(false);
    const refused = new AgentLinkGate(
      { kind: 'refused', source: 'link', given: 'ws://example.com/', problem: 'insecure' },
      remembered,
    );
    expect(refused.mayDial).toBe(false);
    refused.connect();
    expect(refused.state.phase).toBe('refused');
  });
});

describe('shownAgentUrl', () => {
  it.each([
    ['ws://127.0.0.1:8787/agent?token=lat_secret', 'ws://127.0.0.1:8787/agent?token=…'],
    ['wss://a.example/agent?x=1&token=lat_secret&y=2', 'wss://a.example/agent?x=1&token=…&y=2'],
    ['wss://a.example/agent?TOKEN=lat_secret', 'wss://a.example/agent?TOKEN=…'],
    ['ws://127.0.0.1:8787/agent', 'ws://127.0.0.1:8787/agent'],
    ['wss://a.example/agent?mytoken=keep', 'wss://a.example/agent?mytoken=keep'],
  ])('%s is shown as %s: a device token never', (url, shown) => {
    expect(shownAgentUrl(url)).toBe(shown);
  });
});

describe('withoutAgentLink', () => {
  it('drops every agent parameter and keeps the rest of the address', () => {
    expect(withoutAgentLink('http://127.0.0.1:4173/?agent=ws%3A%2F%2Fexample.com&dev=x#top')).toBe(
      '/?dev=x#top',
    );
    expect(withoutAgentLink('http://127.0.0.1:4173/host/?agent=a&agent=b')).toBe('/host/');
  });
});

describe('agent link texts', () => {
  // The connection status line is found by its "Agent:" / "智能体：" prefix; no status this module shows may match.
  it('never put the connection status’s prefix in a sentence of their own', () => {
    for (const [language, text] of Object.entries(AGENT_LINK_TEXTS)) {
      const origin = 'ws://127.0.0.1:8787';
      const sentences = [
        text.remembered.forgot(origin),
        text.remembered.notKept,
        text.declined(origin),
        text.forgotten(origin),
        text.allowed(origin),
        text.noAgent,
      ];
      for (const sentence of sentences)
        expect(sentence.toLowerCase(), language).not.toMatch(/agent:|智能体：/);
    }
  });
});
