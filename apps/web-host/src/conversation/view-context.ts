/**
 * What MCP App views tell the agent about themselves (`ui/update-model-context`), until the user's next turn carries
 * it (`view_context` of `lineup.v1.chat.user_message`, `@lineup/shared/protocol`).
 *
 * Per conversation, each view (by the call that opened it) has at most one context waiting: a later update replaces
 * it, never adds to it; an empty update withdraws it. The user's next turn takes every waiting context, once — what
 * the views said since the turn before. A context is text (the update's `text` blocks, joined by new lines) and/or
 * data (its `structuredContent`), within `VIEW_CONTEXT_LIMITS`; anything else — an image, a resource, too much — is
 * refused with why, as the view's JSON-RPC error, and changes nothing. At most `VIEW_CONTEXT_LIMITS.maxViews` views'
 * contexts wait at once: a further view's update is refused until the user's turn has taken them. What waits is kept
 * with the conversation (`keepIn`: the runtime's view states, under `VIEW_CONTEXTS_STATE_KEY`), so a reload loses
 * none of it (`restore`), and a turn is sent only once the store knows its contexts were taken (`settled`), so a
 * reload never sends one twice.
 */
import { VIEW_CONTEXT_LIMITS, type ViewContext, ViewContextSchema } from '@lineup/shared/protocol';

/** The parameters of `ui/update-model-context` (the MCP Apps SDK's `McpUiUpdateModelContextRequest`). */
export interface ModelContextUpdate {
  readonly content?: readonly { readonly type: string; readonly text?: unknown }[] | undefined;
  readonly structuredContent?: Readonly<Record<string, unknown>> | undefined;
}

/** Which view said it: the call that opened it, the agent's tool of that call, and its server (for people). */
export interface ViewContextSource {
  readonly conversationId: string;
  readonly callId: string;
  readonly tool: string;
  readonly server: string;
}

/** A context waiting for the user's next turn, with who said it (for the composer's note). */
export interface WaitingViewContext {
  readonly context: ViewContext;
  readonly server: string;
}

/** The key of a conversation's waiting contexts among its view states (no view's key: those are ids, `mcp-view:…`). */
export const VIEW_CONTEXTS_STATE_KEY = 'host:view-contexts';

/** Where a conversation's waiting contexts are kept; `save` reports its own failures and never rejects. */
export interface ViewContextStore {
  save(conversationId: string, waiting: readonly WaitingViewContext[]): Promise<void>;
}

/** The most characters of a server's name kept with a context (it only names the view for people). */
const MAX_SERVER_NAME = 256;

/** What was kept for a conversation, checked again as it is read: anything that is not a context today is left out. */
export function keptViewContexts(value: unknown): WaitingViewContext[] {
  if (!Array.isArray(value)) return [];
  const kept: WaitingViewContext[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { context, server } = item as { context?: unknown; server?: unknown };
    if (typeof server !== 'string' || server.length > MAX_SERVER_NAME) continue;
    const checked = ViewContextSchema.safeParse(context);
    if (checked.success && !kept.some((other) => other.context.call_id === checked.data.call_id))
      kept.push({ context: checked.data, server });
  }
  return kept.slice(-VIEW_CONTEXT_LIMITS.maxViews);
}

/** Every context waiting for each conversation's next user turn; see the module's comment. */
export class ViewContexts {
  readonly #waiting = new Map<string, Map<string, WaitingViewContext>>();
  readonly #listeners = new Set<() => void>();
  readonly #restored = new Set<string>();
  #store: ViewContextStore | null = null;
  #writes: Promise<void> = Promise.resolve();

  /** Keeps every change in `store` from now on (until the returned function is called). */
  keepIn(store: ViewContextStore): () => void {
    this.#store = store;
    return () => {
      if (this.#store === store) this.#store = null;
    };
  }

  /** Resolves once every change made so far is in the store. */
  settled(): Promise<void> {
    return this.#writes;
  }

  /**
   * Puts back what was kept for the conversation (`keptViewContexts` of its saved value), once per conversation and
   * page: a view that has said something since keeps its newer context; at most `VIEW_CONTEXT_LIMITS.maxViews` wait.
   */
  restore(conversationId: string, saved: unknown): void {
    if (this.#restored.has(conversationId)) return;
    this.#restored.add(conversationId);
    const kept = keptViewContexts(saved);
    if (kept.length === 0) return;
    const waiting = this.#conversation(conversationId);
    const newer = new Map(waiting);
    const older = kept.filter((item) => !newer.has(item.context.call_id));
    waiting.clear();
    for (const item of older.slice(Math.max(0, older.length + newer.size - VIEW_CONTEXT_LIMITS.maxViews)))
      waiting.set(item.context.call_id, item);
    for (const [callId, item] of newer) waiting.set(callId, item);
    for (const listener of [...this.#listeners]) listener();
  }

  /**
   * Records a view's update: its context now (replacing the one waiting), or none when the update is empty. Throws an
   * `Error` that says why for one this host does not pass (the view's JSON-RPC error), changing nothing.
   */
  update(source: ViewContextSource, update: ModelContextUpdate): void {
    const blocks = update.content ?? [];
    const other = blocks.find((block) => block.type !== 'text' || typeof block.text !== 'string');
    if (other !== undefined)
      throw new Error(
        `This host passes a view's text and structured content to the agent, not ${JSON.stringify(String(other.type).slice(0, 40))} content.`,
      );
    const text = blocks
      .map((block) => block.text as string)
      .filter((part) => part.trim() !== '')
      .join('\n');
    const data = update.structuredContent;
    const waiting = this.#conversation(source.conversationId);
    if (text === '' && (data === undefined || Object.keys(data).length === 0)) {
      if (waiting.delete(source.callId)) this.#changed(source.conversationId);
      return;
    }
    if (!waiting.has(source.callId) && waiting.size >= VIEW_CONTEXT_LIMITS.maxViews)
      throw new Error(
        `The context of ${VIEW_CONTEXT_LIMITS.maxViews} views already waits for the user's next message; this one is not kept.`,
      );
    const checked = ViewContextSchema.safeParse({
      call_id: source.callId,
      tool: source.tool,
      ...(text === '' ? {} : { text }),
      ...(data === undefined ? {} : { data }),
    });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path[0];
      throw new Error(
        where === 'text'
          ? `A view's context text is at most ${VIEW_CONTEXT_LIMITS.maxTextLength} characters with no control characters; this one is not kept.`
          : where === 'data'
            ? `A view's structured context is a JSON object of at most ${VIEW_CONTEXT_LIMITS.maxDataBytes} bytes; this one is not kept.`
            : `This context cannot be kept: ${issue?.message ?? 'it is not valid'}.`,
      );
    }
    waiting.delete(source.callId); // replaced: it moves to the end, as the latest
    waiting.set(source.callId, { context: checked.data, server: source.server });
    this.#changed(source.conversationId);
  }

  /** The contexts waiting for the conversation's next user turn, oldest first. */
  waiting(conversationId: string): readonly WaitingViewContext[] {
    return [...(this.#waiting.get(conversationId)?.values() ?? [])];
  }

  /** Takes every context waiting for the conversation: its user's turn carries them (`.context`), once. */
  take(conversationId: string): readonly WaitingViewContext[] {
    const waiting = this.#waiting.get(conversationId);
    if (waiting === undefined || waiting.size === 0) return [];
    this.#waiting.delete(conversationId);
    this.#changed(conversationId);
    return [...waiting.values()];
  }

  /**
   * Puts back what a turn that was not sent had taken: a view that updated since keeps its newer context, and of the
   * rest only as many as leave at most `VIEW_CONTEXT_LIMITS.maxViews` waiting (the newest).
   */
  giveBack(conversationId: string, taken: readonly WaitingViewContext[]): void {
    if (taken.length === 0) return;
    const waiting = this.#conversation(conversationId);
    const newer = new Map(waiting);
    waiting.clear();
    const older = taken.filter((item) => !newer.has(item.context.call_id));
    for (const item of older.slice(Math.max(0, older.length + newer.size - VIEW_CONTEXT_LIMITS.maxViews)))
      waiting.set(item.context.call_id, item);
    for (const [callId, item] of newer) waiting.set(callId, item);
    this.#changed(conversationId);
  }

  /** Forgets what the view of `callId` said (its view was closed, or its call is gone). */
  forget(conversationId: string, callId: string): void {
    if (this.#waiting.get(conversationId)?.delete(callId)) this.#changed(conversationId);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #conversation(conversationId: string): Map<string, WaitingViewContext> {
    let waiting = this.#waiting.get(conversationId);
    if (waiting === undefined) {
      waiting = new Map();
      this.#waiting.set(conversationId, waiting);
    }
    return waiting;
  }

  #changed(conversationId: string): void {
    const store = this.#store;
    if (store !== null) {
      // What waits now, written after every earlier change: the store ends with the latest.
      const now = this.waiting(conversationId);
      this.#writes = this.#writes.then(() => store.save(conversationId, now));
    }
    for (const listener of [...this.#listeners]) listener();
  }
}
