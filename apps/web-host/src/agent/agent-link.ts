/**
 * Which agent this page may dial, and whether it must ask the user first. Framework-free: `AgentLinkPanel.tsx`
 * shows the question, `runtime.tsx` holds the connection until it is answered, and the rules are tested here.
 *
 * - An agent URL the host was built with (`LINEUP_AGENT_URL`, the deployer's configuration) is dialled at once.
 * - An agent URL from the page (`?agent=…`, which anyone can put in a link) is dialled only once the user pressed
 *   "Connect" — or pressed it before for the same origin (scheme, host and port) in this browser profile, which
 *   `RememberedAgents` keeps in `localStorage` until the user forgets it. "Don't connect" is not remembered: the
 *   link asks again the next time it is opened.
 * - Transport, for both: `ws://` only to this computer (`localhost`, `127.0.0.0/8`, `[::1]`), `wss://` to any
 *   other host; nothing else is an agent URL. A link that breaks a rule is refused without a question and without
 *   dialling anything; so is any link while the page is shown inside another page (which could trick the user
 *   into pressing "Connect"). A build whose `LINEUP_AGENT_URL` breaks a rule fails (`vite.config.ts`), and a page
 *   built around that check refuses it too.
 */

/** The page URL's parameter that names an agent. */
export const AGENT_LINK_PARAMETER = 'agent';
/** Where this browser profile keeps the agent origins the user allowed (a JSON array of origins). */
export const REMEMBERED_AGENTS_KEY = 'lineup-host-agent-origins';
/** The longest agent URL LineUp dials (and shows). */
export const MAX_AGENT_URL_LENGTH = 2_048;
/** The most agent origins kept; remembering one more lets go of the oldest. */
export const MAX_REMEMBERED_AGENTS = 50;

/** Why an agent URL is refused. */
export type AgentUrlProblem =
  /** Not a URL at all. */
  | 'not_a_url'
  /** A URL, but not `ws:` or `wss:`. */
  | 'not_websocket'
  /** `ws:` (unencrypted) to a host that is not this computer. */
  | 'insecure'
  /** A user name or password in the URL. */
  | 'credentials'
  /** A `#fragment`, which a WebSocket URL cannot have. */
  | 'fragment'
  /** Longer than `MAX_AGENT_URL_LENGTH`. */
  | 'too_long'
  /** The page link names more than one agent. */
  | 'several'
  /** The page is shown inside another page: a link's agent is never asked for there. */
  | 'framed';

export type AgentUrlCheck =
  | {
      readonly ok: true;
      /** The URL as it is dialled (parsed and serialized). */
      readonly url: string;
      /** Its origin: scheme, host and port (a default port left out), e.g. `ws://127.0.0.1:8787`. */
      readonly origin: string;
    }
  | { readonly ok: false; readonly problem: AgentUrlProblem };

/**
 * Whether `hostname` (as `URL` serializes it: lower case, IPv4 in dotted decimal, IPv6 in brackets and compressed)
 * names this computer: `localhost`, an address of 127.0.0.0/8, or `[::1]`. Nothing else — not `*.localhost`, not
 * an IPv4-mapped IPv6 address — so `ws://` never leaves the machine on a name's word.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  if (octets === null) return false;
  return octets.slice(1).every((octet) => Number(octet) <= 255);
}

/** Checks an agent URL against the transport rule: `wss://` anywhere, `ws://` to this computer only. */
export function checkAgentUrl(text: string): AgentUrlCheck {
  if (text.length > MAX_AGENT_URL_LENGTH) return { ok: false, problem: 'too_long' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: 'not_a_url' };
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return { ok: false, problem: 'not_websocket' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials' };
  // `new WebSocket` throws on any fragment, an empty one (`…#`) included, which `url.hash` does not show.
  if (url.href.includes('#')) return { ok: false, problem: 'fragment' };
  if (url.protocol === 'ws:' && !isLoopbackHost(url.hostname)) return { ok: false, problem: 'insecure' };
  if (url.href.length > MAX_AGENT_URL_LENGTH) return { ok: false, problem: 'too_long' };
  return { ok: true, url: url.href, origin: `${url.protocol}//${url.host}` };
}

/** Whether `text` is an agent origin as `checkAgentUrl` gives it (what `RememberedAgents` may hold). */
export function isAgentOrigin(text: string): boolean {
  const checked = checkAgentUrl(text);
  return checked.ok && checked.origin === text;
}

/** What the page does about an agent, from where its URL came and what the user decided before. */
export type AgentPlan =
  /** No agent named: the built-in demo agent answers, in process. */
  | { readonly kind: 'demo' }
  /** The host's own configuration (`LINEUP_AGENT_URL`): dialled at once. */
  | { readonly kind: 'configured'; readonly url: string; readonly origin: string }
  /** A page link's agent: dialled at once when its origin is remembered, else only after the user confirms. */
  | { readonly kind: 'link'; readonly url: string; readonly origin: string; readonly remembered: boolean }
  /** Refused by a rule: nothing is dialled and nothing asked. `given` is the URL as it came (shown as text). */
  | {
      readonly kind: 'refused';
      readonly source: 'link' | 'configured';
      readonly given: string;
      readonly problem: AgentUrlProblem;
    };

export interface AgentPlanInput {
  /** The page URL's query (`location.search`). */
  readonly search: string;
  /** The build's `LINEUP_AGENT_URL`, if any. */
  readonly configured?: string | undefined;
  /** Whether the user allowed this origin before (`RememberedAgents.has`). */
  readonly remembered: (origin: string) => boolean;
  /** Whether the page is shown inside another page (`window.top !== window`). */
  readonly framed?: boolean;
}

/**
 * The page's agent: a link's (`?agent=`, asking unless remembered), else the configured one, else the demo agent.
 * An empty `?agent=` counts as none. A link naming exactly the configured URL is the configured agent.
 */
export function planAgent(input: AgentPlanInput): AgentPlan {
  const links = new URLSearchParams(input.search)
    .getAll(AGENT_LINK_PARAMETER)
    .filter((value) => value !== '');
  const configured = input.configured ?? '';
  const configuredCheck = configured === '' ? null : checkAgentUrl(configured);
  const fromConfiguration = (): AgentPlan => {
    if (configuredCheck === null) return { kind: 'demo' };
    if (!configuredCheck.ok)
      return { kind: 'refused', source: 'configured', given: configured, problem: configuredCheck.problem };
    return { kind: 'configured', url: configuredCheck.url, origin: configuredCheck.origin };
  };
  if (links.length === 0) return fromConfiguration();
  const given = links[0] as string;
  if (links.length > 1) return { kind: 'refused', source: 'link', given, problem: 'several' };
  const checked = checkAgentUrl(given);
  if (!checked.ok) return { kind: 'refused', source: 'link', given, problem: checked.problem };
  if (configuredCheck?.ok === true && configuredCheck.url === checked.url) return fromConfiguration();
  if (input.framed === true) return { kind: 'refused', source: 'link', given, problem: 'framed' };
  return {
    kind: 'link',
    url: checked.url,
    origin: checked.origin,
    remembered: input.remembered(checked.origin),
  };
}

/**
 * An agent URL as the page shows it: a device token in it (`?token=…`, as `@lineup/agent` prints the URL a device
 * dials) is never shown — a screenshot or a shared screen must not leak it.
 */
export function shownAgentUrl(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1…');
}

/** `href` without the agent link: what "Open LineUp without the agent link" opens (path, query and fragment). */
export function withoutAgentLink(href: string): string {
  const url = new URL(href);
  url.searchParams.delete(AGENT_LINK_PARAMETER);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The part of `Storage` kept to (`localStorage`, or a stand-in in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * The agent origins the user allowed in this browser profile, oldest first. A storage that cannot be read starts
 * empty; one that cannot be written keeps the change for this page only (`remember` says so). Entries that are
 * not agent origins are dropped when read.
 */
export class RememberedAgents {
  readonly #storage: KeyValueStorage | null;
  #origins: readonly string[];
  readonly #listeners = new Set<() => void>();

  constructor(storage: KeyValueStorage | null) {
    this.#storage = storage;
    this.#origins = this.#read();
  }

  /** The origins, oldest first; the same array until they change. */
  get origins(): readonly string[] {
    return this.#origins;
  }

  has(origin: string): boolean {
    return this.#origins.includes(origin);
  }

  /** Remembers `origin`; false when the browser refused to keep it (then it holds for this page only). */
  remember(origin: string): boolean {
    if (!isAgentOrigin(origin)) throw new TypeError(`${origin} is not an agent origin (ws:// or wss://).`);
    const others = this.#origins.filter((entry) => entry !== origin);
    return this.#set([...others, origin].slice(-MAX_REMEMBERED_AGENTS));
  }

  /** Forgets `origin`: a link to it asks again. */
  forget(origin: string): boolean {
    if (!this.has(origin)) return true;
    return this.#set(this.#origins.filter((entry) => entry !== origin));
  }

  /** Reads the storage again (another tab of the profile changed it: the `storage` event). */
  reload(): void {
    const origins = this.#read();
    if (
      origins.length === this.#origins.length &&
      origins.every((origin, at) => origin === this.#origins[at])
    )
      return;
    this.#origins = origins;
    this.#notify();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #read(): readonly string[] {
    let text: string | null = null;
    try {
      text = this.#storage?.getItem(REMEMBERED_AGENTS_KEY) ?? null;
    } catch {
      return [];
    }
    if (text === null) return [];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [];
    }
    if (!Array.isArray(value)) return [];
    const origins = value.filter(
      (entry): entry is string => typeof entry === 'string' && isAgentOrigin(entry),
    );
    return [...new Set(origins)].slice(-MAX_REMEMBERED_AGENTS);
  }

  #set(origins: readonly string[]): boolean {
    this.#origins = origins;
    let kept = this.#storage !== null;
    try {
      this.#storage?.setItem(REMEMBERED_AGENTS_KEY, JSON.stringify(origins));
    } catch {
      kept = false;
    }
    this.#notify();
    return kept;
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

/** Where the page stands with its agent; `AgentLinkPanel` shows every phase but `demo` and `configured`. */
export type AgentLinkState =
  | { readonly phase: 'demo' }
  | { readonly phase: 'configured'; readonly url: string; readonly origin: string }
  | {
      readonly phase: 'refused';
      readonly source: 'link' | 'configured';
      readonly given: string;
      readonly problem: AgentUrlProblem;
    }
  /** The question is on screen; nothing is dialled. */
  | { readonly phase: 'asking'; readonly url: string; readonly origin: string }
  /** Allowed: before (`remembered`) or just now (`confirmed`); `kept` is false when the browser refused to remember. */
  | {
      readonly phase: 'allowed';
      readonly url: string;
      readonly origin: string;
      readonly how: 'remembered' | 'confirmed';
      readonly kept: boolean;
    }
  /** The user pressed "Don't connect": nothing is dialled on this page. */
  | { readonly phase: 'declined'; readonly url: string; readonly origin: string }
  /** The user forgot the origin this page was connected to: the connection ended. */
  | { readonly phase: 'forgotten'; readonly url: string; readonly origin: string };

/**
 * One page's decision about its agent. It starts from `planAgent` and moves only forward: `asking` to `allowed`
 * (`connect`) or `declined` (`decline`), and `allowed` to `forgotten` when the user forgets that origin.
 */
export class AgentLinkGate {
  readonly remembered: RememberedAgents;
  #state: AgentLinkState;
  readonly #listeners = new Set<() => void>();

  constructor(plan: AgentPlan, remembered: RememberedAgents) {
    this.remembered = remembered;
    switch (plan.kind) {
      case 'demo':
        this.#state = { phase: 'demo' };
        break;
      case 'configured':
        this.#state = { phase: 'configured', url: plan.url, origin: plan.origin };
        break;
      case 'refused':
        this.#state = { phase: 'refused', source: plan.source, given: plan.given, problem: plan.problem };
        break;
      case 'link':
        this.#state = plan.remembered
          ? { phase: 'allowed', url: plan.url, origin: plan.origin, how: 'remembered', kept: true }
          : { phase: 'asking', url: plan.url, origin: plan.origin };
        break;
    }
  }

  get state(): AgentLinkState {
    return this.#state;
  }

  /** Whether the page may dial its agent now (a remote one: configured, or a link the user allowed). */
  get mayDial(): boolean {
    return this.#state.phase === 'configured' || this.#state.phase === 'allowed';
  }

  /** The user pressed "Connect": the origin is remembered and the page may dial. */
  connect(): void {
    const state = this.#state;
    if (state.phase !== 'asking') return;
    const kept = this.remembered.remember(state.origin);
    this.#move({ phase: 'allowed', url: state.url, origin: state.origin, how: 'confirmed', kept });
  }

  /** The user pressed "Don't connect": nothing is dialled on this page (and nothing remembered). */
  decline(): void {
    const state = this.#state;
    if (state.phase !== 'asking') return;
    this.#move({ phase: 'declined', url: state.url, origin: state.origin });
  }

  /** Forgets `origin`; when this page's link agent is there, its connection is to end (`forgotten`). */
  forget(origin: string): boolean {
    const kept = this.remembered.forget(origin);
    const state = this.#state;
    if (state.phase === 'allowed' && state.origin === origin)
      this.#move({ phase: 'forgotten', url: state.url, origin: state.origin });
    return kept;
  }

  /**
   * Reads the remembered origins again (another tab of the profile changed them). When the user forgot there the
   * origin this page was allowed through, this page's connection ends too.
   */
  reload(): void {
    this.remembered.reload();
    const state = this.#state;
    if (state.phase === 'allowed' && state.kept && !this.remembered.has(state.origin))
      this.#move({ phase: 'forgotten', url: state.url, origin: state.origin });
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #move(state: AgentLinkState): void {
    this.#state = state;
    for (const listener of [...this.#listeners]) listener();
  }
}
