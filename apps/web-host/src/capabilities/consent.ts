/**
 * The questions the runtime asks the user, one at a time, framework-free: capability calls (`confirm`, the
 * `CapabilityRuntime`'s option) and Agent Tool or view calls (`confirmTool`, the `ToolRuntime`'s option) in one queue,
 * in the order they came; the dialog (ConsentDialog.tsx) shows `current` and answers it. A question whose call
 * expires or ends otherwise (its signal aborts) leaves the queue by itself, answered `dismiss` — an answer the runtime
 * then ignores, since the call's own end stands.
 */
import type {
  ConsentDecision,
  ConsentRequest,
  ToolConsentAnswer,
  ToolConsentQuestion,
} from '@lineup/runtime';

/** What the dialog shows: a capability call's request, or a tool call's question. */
export type ConsentItem =
  | { readonly kind: 'capability'; readonly request: ConsentRequest }
  | { readonly kind: 'tool'; readonly question: ToolConsentQuestion };

/** The answer the dialog gives: the same three for both kinds (the queue maps them). */
export type DialogAnswer =
  | { readonly decision: 'allow'; readonly remember?: boolean }
  | { readonly decision: 'deny' }
  | { readonly decision: 'dismiss' };

interface Question {
  readonly item: ConsentItem;
  readonly answer: (answer: DialogAnswer) => void;
  /** The page is going: nothing is decided (a tool call's question is asked again at the next start). */
  readonly abandon: () => void;
}

export class ConsentQueue {
  #questions: readonly Question[] = [];
  /** Grows on every change (a question added behind the current one too): the dialog's snapshot. */
  #version = 0;
  readonly #listeners = new Set<() => void>();

  /** The question shown now, if any. */
  get current(): ConsentItem | null {
    return this.#questions[0]?.item ?? null;
  }

  /** Changes whenever the queue does. */
  get version(): number {
    return this.#version;
  }

  /** How many wait behind the current one. */
  get waiting(): number {
    return Math.max(0, this.#questions.length - 1);
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Asks about a capability call; resolves with the decision, or `dismiss` when the call expires first. */
  confirm = (request: ConsentRequest): Promise<ConsentDecision> =>
    this.#ask<ConsentDecision>({ kind: 'capability', request }, request.signal, (answer) => answer, {
      decision: 'dismiss',
    });

  /**
   * Asks about an Agent Tool call or a view's call; resolves with the answer, `dismiss` when its signal aborts, or
   * `abandon` when the page goes (`dismissAll`).
   */
  confirmTool = (question: ToolConsentQuestion): Promise<ToolConsentAnswer> =>
    this.#ask<ToolConsentAnswer>({ kind: 'tool', question }, question.signal, (answer) => answer, {
      decision: 'abandon',
    });

  #ask<T>(
    item: ConsentItem,
    signal: AbortSignal,
    map: (answer: DialogAnswer) => T,
    abandoned: T,
  ): Promise<T> {
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve(map({ decision: 'dismiss' }));
        return;
      }
      const settle = (value: T) => {
        signal.removeEventListener('abort', onAbort);
        this.#remove(question);
        resolve(value);
      };
      const question: Question = {
        item,
        answer: (answer) => settle(map(answer)),
        abandon: () => settle(abandoned),
      };
      const onAbort = () => question.answer({ decision: 'dismiss' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.#questions = [...this.#questions, question];
      this.#notify();
    });
  }

  /**
   * The user's answer to the current question — only if it is still `item` when given: a press meant for one
   * question never answers the next.
   */
  answer(answer: DialogAnswer, item?: ConsentItem): void {
    const current = this.#questions[0];
    if (current === undefined || (item !== undefined && current.item !== item)) return;
    current.answer(answer);
  }

  /**
   * The page is closing: every open question leaves the screen. A capability call's is dismissed (the next start's
   * `recover()` ends its call); a tool call's is abandoned, so the next start asks it again.
   */
  dismissAll(): void {
    for (const question of this.#questions) question.abandon();
  }

  #remove(question: Question): void {
    this.#questions = this.#questions.filter((item) => item !== question);
    this.#notify();
  }

  #notify(): void {
    this.#version++;
    for (const listener of [...this.#listeners]) listener();
  }
}
