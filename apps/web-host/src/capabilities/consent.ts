/**
 * The questions the capability runtime asks the user, one at a time, framework-free: `confirm` is the runtime's
 * `confirm` option; the dialog (ConsentDialog.tsx) shows `current` and answers it. A question whose call expires
 * (its signal aborts) leaves the queue by itself, answered `dismiss`.
 */
import type { ConsentDecision, ConsentRequest } from '@lineup/runtime';

interface Question {
  readonly request: ConsentRequest;
  readonly answer: (decision: ConsentDecision) => void;
}

export class ConsentQueue {
  #questions: readonly Question[] = [];
  /** Grows on every change (a question added behind the current one too): the dialog's snapshot. */
  #version = 0;
  readonly #listeners = new Set<() => void>();

  /** The question shown now, if any. */
  get current(): ConsentRequest | null {
    return this.#questions[0]?.request ?? null;
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

  /** Asks the user; resolves with their decision, or `dismiss` when the call expires first. */
  confirm = (request: ConsentRequest): Promise<ConsentDecision> =>
    new Promise((resolve) => {
      if (request.signal.aborted) {
        resolve({ decision: 'dismiss' });
        return;
      }
      const question: Question = {
        request,
        answer: (decision) => {
          request.signal.removeEventListener('abort', onAbort);
          this.#remove(question);
          resolve(decision);
        },
      };
      const onAbort = () => question.answer({ decision: 'dismiss' });
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.#questions = [...this.#questions, question];
      this.#notify();
    });

  /**
   * The user's answer to the current question — only if it is still `request` when given: a press meant for one
   * question never answers the next.
   */
  answer(decision: ConsentDecision, request?: ConsentRequest): void {
    const current = this.#questions[0];
    if (current === undefined || (request !== undefined && current.request !== request)) return;
    current.answer(decision);
  }

  /** Every open question is dismissed (the page is closing). */
  dismissAll(): void {
    for (const question of this.#questions) question.answer({ decision: 'dismiss' });
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
