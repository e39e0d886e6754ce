/** The runtime database's DSL action ledger (`action_ledger`, seed 002 §11). */

/** seed 002 §11: `queued`, `awaiting_confirmation`, `running` (active); the rest final. */
export type ActionReceiptStatus =
  | 'queued'
  | 'awaiting_confirmation'
  | 'running'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'unknown'
  | 'accepted';

/** One operation of the DSL action ledger: the request, what the runtime derived for it, and its status. */
export interface ActionLedgerRecord {
  readonly operationId: string;
  readonly conversationId: string;
  readonly requestId: string;
  readonly documentRef: {
    readonly sourceCallId: string;
    readonly uiId: string;
    readonly generation: number;
    readonly revision: number;
  };
  /** conversation, sourceCallId, uiId, generation, revision joined by newlines: `by_document` lists a UI's rows. */
  readonly documentKey: string;
  readonly actionId: string;
  /** seed 002 §11: the SHA-256 of the request's documentRef, actionId and values. */
  readonly parameterHash: string;
  readonly kind: 'tool' | 'agent';
  /** The document's title (as the agent wrote it: show as text), for the consent question. */
  readonly title?: string;
  /** For a tool action: the capability and the arguments re-derived from the stored document. */
  readonly capabilityId?: string;
  readonly arguments?: Readonly<Record<string, string | number | boolean | null>>;
  /** For an agent action: the prompt re-derived from the stored document. */
  readonly prompt?: string;
  readonly status: ActionReceiptStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly message?: string;
  readonly result?: Readonly<Record<string, string | number | boolean | null>>;
  /** An agent action: when its message went into the conversation's journal (it reaches the agent from there). */
  readonly sentAt?: number;
}
