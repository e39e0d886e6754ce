/**
 * Text proposed for the user's next turn by something on the page that is not the user — an MCP App view's
 * `ui/message`. It goes into the message box, never to the agent: it becomes the user's turn only if the user sends
 * it (seed 003 §3: a view is not the user). One listener: the chat form.
 */

/** A proposal: the text, and who proposed it (shown beside the box). */
export interface Draft {
  readonly text: string;
  readonly from: string;
}

let listener: ((draft: Draft) => void) | null = null;

/** The chat form listens; a proposal replaces what the box holds only if the user accepts it (see the form). */
export function onDraft(next: (draft: Draft) => void): () => void {
  listener = next;
  return () => {
    if (listener === next) listener = null;
  };
}

/** Proposes `text` for the user's next turn. False when no message box is there to take it. */
export function proposeDraft(draft: Draft): boolean {
  if (listener === null) return false;
  listener(draft);
  return true;
}
