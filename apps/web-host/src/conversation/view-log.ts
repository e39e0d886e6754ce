/**
 * What MCP App views log (`notifications/message`, the MCP logging notification a view sends its host): kept in
 * memory for the agent console (console/ViewLogView.tsx) and nowhere else — never sent to the agent, never stored.
 * Bounded: the newest `VIEW_LOG_LIMIT` entries are kept (the console says how many older ones went), and an entry's
 * text is at most `VIEW_LOG_ENTRY_CHARS` characters, the rest counted, never cut silently.
 */

/** How many entries are kept, newest last. */
export const VIEW_LOG_LIMIT = 200;
/** The most characters of one entry's text (its `data`, as JSON when it is not a string). */
export const VIEW_LOG_ENTRY_CHARS = 2_000;

/** The MCP logging levels, least severe first. */
export const VIEW_LOG_LEVELS = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const);
export type ViewLogLevel = (typeof VIEW_LOG_LEVELS)[number];

export interface ViewLogEntry {
  /** Unique in this page, increasing. */
  readonly id: number;
  /** Unix ms. */
  readonly at: number;
  /** The server's name and the tool whose view logged, as the conversation shows them. */
  readonly server: string;
  readonly tool: string;
  readonly level: ViewLogLevel;
  /** The logger the view named, bounded (absent when it named none). */
  readonly logger?: string;
  readonly text: string;
  /** Characters of the text left out (0: all of it is shown). */
  readonly omitted: number;
}

/** What a view's notification carries (`params`), unchecked: a view is untrusted. */
export interface ViewLogMessage {
  readonly level?: unknown;
  readonly logger?: unknown;
  readonly data?: unknown;
}

function textOf(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

export class ViewLog {
  #entries: readonly ViewLogEntry[] = [];
  #dropped = 0;
  #next = 1;
  readonly #listeners = new Set<() => void>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Newest last. The same array until the log changes. */
  get entries(): readonly ViewLogEntry[] {
    return this.#entries;
  }

  /** How many entries went to keep the newest `VIEW_LOG_LIMIT`. */
  get dropped(): number {
    return this.#dropped;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Keeps what one view logged; an unknown level is kept as `info`, a text past the bound is cut and counted. */
  add(source: { readonly server: string; readonly tool: string }, message: ViewLogMessage): void {
    const level = VIEW_LOG_LEVELS.includes(message.level as ViewLogLevel)
      ? (message.level as ViewLogLevel)
      : 'info';
    const whole = textOf(message.data);
    const text = whole.slice(0, VIEW_LOG_ENTRY_CHARS);
    const logger = typeof message.logger === 'string' ? message.logger.slice(0, 128) : undefined;
    const entry: ViewLogEntry = {
      id: this.#next++,
      at: this.#now(),
      server: source.server,
      tool: source.tool,
      level,
      ...(logger === undefined || logger === '' ? {} : { logger }),
      text,
      omitted: whole.length - text.length,
    };
    const kept = [...this.#entries, entry];
    const over = Math.max(0, kept.length - VIEW_LOG_LIMIT);
    this.#dropped += over;
    this.#entries = over > 0 ? kept.slice(over) : kept;
    for (const listener of [...this.#listeners]) listener();
  }
}
