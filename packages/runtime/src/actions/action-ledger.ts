/**
 * The DSL action ledger (seed 002 §11, seed 004 §4): what a 1.1 `invoke` button asks for, recorded before anything
 * is queued. The runtime plays seed 004's "host": it finds the document the agent sent (in the conversation's
 * records, never the page's copy), validates the submitted state values against it, re-derives the action's
 * capability arguments or agent prompt (`resolveUIAction`), and stores one row per operation with the request's
 * parameter digest.
 *
 * - `reserve`: the same `requestId` with the same content returns the existing receipt (a network retry), with
 *   other content is refused; a reference to an unknown document, to a stream snapshot that is not complete, to an
 *   undeclared action or capability, or values the document refuses, are refused and write nothing.
 * - `get`, `list` (a document's receipts), `catalog` (the DSL capabilities the host offers).
 * - `cancel`: an operation still `queued` or `awaiting_confirmation` becomes `cancelled` (claiming no undo);
 *   a running or final one is returned as it is.
 * - `claim`: atomically moves one `queued` operation to `running` (only one claimant ever wins); `settle` records
 *   its final status. A final status never changes again; `unknown` is never retried.
 * - `recover`: after a reload nothing is scheduled again: what had not started is `cancelled`, a tool action left
 *   `running` is `unknown` (its effect cannot be known; it is not run again).
 *
 * Running the claimed operations (a tool action through the capability runtime with consent by risk, an agent
 * action as a turn of the conversation) is the `ActionRunner`'s; this module keeps the facts.
 */
import {
  assertValidState,
  computeParameterHash,
  initialState,
  isLineUpError,
  LineUpError,
  LineUpProtocolError,
  parseDocument,
  parseUIActionReserveRequest,
  resolveUIAction,
  type UIActionReceipt,
  type UIActionReserveRequest,
  type UICapabilityDescriptor,
  type UIDocument,
  type UIDocumentRef,
} from '@lineup/shared';
import { UIActionPayloadSchema } from '@lineup/shared/protocol';
import {
  type ActionLedgerRecord,
  type ActionReceiptStatus,
  type RuntimeDatabase,
  STRICT,
} from '../storage/database.js';
import type { Clock } from '../time/clock.js';

/** Where the ledger finds the document an agent sent (a `ConversationStore`). */
export interface ActionDocumentSource {
  /** The document of `ref` in the conversation, and whether it is final (a complete UI, a completed stream). */
  findDocument(
    conversationId: string,
    ref: UIDocumentRef,
  ): Promise<{ readonly document: unknown; readonly complete: boolean } | undefined>;
}

/** Why a request was refused; nothing was written. */
export type ActionLedgerErrorCode =
  | 'invalid_request'
  | 'request_conflict'
  | 'unknown_document'
  | 'stream_not_complete'
  | 'invalid_values'
  | 'unknown_action'
  | 'unknown_capability'
  | 'unknown_operation';

export class ActionLedgerError extends LineUpError<ActionLedgerErrorCode> {
  override readonly name = 'ActionLedgerError';
}

export interface ActionLedgerOptions {
  readonly documents: ActionDocumentSource;
  /** The DSL capabilities the host offers (`capabilityId` → descriptor); a tool action must name one. */
  readonly catalog: () => readonly UICapabilityDescriptor[] | Promise<readonly UICapabilityDescriptor[]>;
  readonly clock?: Clock;
  /** New operation ids (default `op_` + `crypto.randomUUID()`). */
  readonly ids?: () => string;
  /** Called after each committed change (a new reserve, a status change) with the operation's new receipt. */
  readonly onChange?: (conversationId: string, receipt: UIActionReceipt) => void;
}

/** The statuses an operation ends in (seed 002 §11); each is final. */
type FinalStatus = 'succeeded' | 'failed' | 'cancelled' | 'unknown' | 'accepted';

/** What a status change may record: a public result (with `succeeded` only) and a message for people. */
interface SettleDetails {
  readonly result?: Readonly<Record<string, string | number | boolean | null>>;
  readonly message?: string;
}

const ACTIVE: ReadonlySet<ActionReceiptStatus> = new Set(['queued', 'awaiting_confirmation', 'running']);

export class ActionLedger {
  readonly #db: RuntimeDatabase;
  readonly #options: ActionLedgerOptions;
  readonly #now: () => number;
  readonly #ids: () => string;

  constructor(db: RuntimeDatabase, options: ActionLedgerOptions) {
    this.#db = db;
    this.#options = options;
    const clock = options.clock;
    this.#now = clock === undefined ? Date.now : () => clock.now();
    this.#ids = options.ids ?? (() => `op_${crypto.randomUUID()}`);
  }

  /** The DSL capabilities the host offers (seed 002 §11 `catalog`). */
  async catalog(): Promise<readonly UICapabilityDescriptor[]> {
    return this.#options.catalog();
  }

  /** Records a click's request, or returns the receipt of the same request made before. */
  async reserve(conversationId: string, input: unknown): Promise<UIActionReceipt> {
    let request: UIActionReserveRequest;
    try {
      request = parseUIActionReserveRequest(input);
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      throw new ActionLedgerError('invalid_request', `Not a valid reserve request: ${firstIssue(error)}`, {
        cause: error,
      });
    }
    const parameterHash = computeParameterHash(request);
    const existing = await this.#db.getFromIndex('action_ledger', 'by_request', [
      conversationId,
      request.requestId,
    ]);
    if (existing !== undefined) {
      if (existing.parameterHash !== parameterHash)
        throw new ActionLedgerError(
          'request_conflict',
          'This requestId was already used for a different request; nothing was recorded.',
        );
      return receiptOf(existing);
    }
    const derived = await this.#derive(conversationId, request);
    const now = this.#now();
    const record: ActionLedgerRecord = {
      operationId: this.#ids(),
      conversationId,
      requestId: request.requestId,
      documentRef: request.documentRef,
      documentKey: documentKey(conversationId, request.documentRef),
      actionId: request.actionId,
      parameterHash,
      status: 'queued',
      createdAt: now,
      updatedAt: now,
      ...derived,
    };
    const tx = this.#db.transaction(['action_ledger', 'audit'], 'readwrite', STRICT);
    const ledger = tx.objectStore('action_ledger');
    // Two reserves of one request racing: the second finds the first inside its own transaction.
    const raced = await ledger.index('by_request').get([conversationId, request.requestId]);
    if (raced !== undefined) {
      await tx.done;
      if (raced.parameterHash !== parameterHash)
        throw new ActionLedgerError(
          'request_conflict',
          'This requestId was already used for a different request.',
        );
      return receiptOf(raced);
    }
    await ledger.add(record);
    await tx.objectStore('audit').add({
      at: now,
      type: 'action_reserved',
      appId: 'host',
      version: '',
      conversationId,
      operationId: record.operationId,
      detail: `${record.actionId} ${record.kind}`,
    });
    await tx.done;
    const receipt = receiptOf(record);
    this.#options.onChange?.(conversationId, receipt);
    return receipt;
  }

  /** One operation's receipt (of this conversation). */
  async get(conversationId: string, operationId: string): Promise<UIActionReceipt> {
    return receiptOf(await this.#record(conversationId, operationId));
  }

  /** The stored row (with what was derived), for the executor. */
  async operation(conversationId: string, operationId: string): Promise<ActionLedgerRecord> {
    return this.#record(conversationId, operationId);
  }

  /** The receipts of one document, oldest first. */
  async list(conversationId: string, ref: UIDocumentRef): Promise<readonly UIActionReceipt[]> {
    const records = await this.#db.getAllFromIndex(
      'action_ledger',
      'by_document',
      documentKey(conversationId, ref),
    );
    return records.sort((a, b) => a.createdAt - b.createdAt).map(receiptOf);
  }

  /** Cancels an operation that has not started; a running or final one is returned unchanged. */
  async cancel(conversationId: string, operationId: string): Promise<UIActionReceipt> {
    return this.#transition(conversationId, operationId, ['queued', 'awaiting_confirmation'], 'cancelled', {
      message: 'Cancelled before it ran.',
    });
  }

  /**
   * Moves a queued operation to `awaiting_confirmation` (the user is being asked), in one transaction: the record
   * when this caller won, `null` when it was not queued any more (another claimant, a cancel).
   */
  async awaitConfirmation(conversationId: string, operationId: string): Promise<ActionLedgerRecord | null> {
    const { record, changed } = await this.#move(
      conversationId,
      operationId,
      ['queued'],
      'awaiting_confirmation',
    );
    return changed ? record : null;
  }

  /**
   * Notes that a running agent action's message is in the conversation's journal (it reaches the agent now or when
   * it is back): after a reload the operation keeps waiting for the agent's answer instead of becoming `unknown`.
   */
  async markSent(conversationId: string, operationId: string): Promise<void> {
    const tx = this.#db.transaction('action_ledger', 'readwrite', STRICT);
    const record = await tx.store.get(operationId);
    if (record !== undefined && record.conversationId === conversationId && record.status === 'running')
      await tx.store.put({ ...record, sentAt: this.#now() });
    await tx.done;
  }

  /**
   * Claims an operation for running: `queued` or `awaiting_confirmation` → `running`, in one transaction.
   * Returns the record when this caller won, `null` when it was not claimable (already claimed, cancelled, final).
   */
  async claim(conversationId: string, operationId: string): Promise<ActionLedgerRecord | null> {
    const { record, changed } = await this.#move(
      conversationId,
      operationId,
      ['queued', 'awaiting_confirmation'],
      'running',
    );
    return changed ? record : null;
  }

  /** Records the final status of an active operation; a final one never changes (the stored receipt is returned). */
  async settle(
    conversationId: string,
    operationId: string,
    status: FinalStatus,
    details: SettleDetails = {},
  ): Promise<UIActionReceipt> {
    return (await this.settleOnce(conversationId, operationId, status, details)).receipt;
  }

  /** `settle`, telling whether this call made the change (`false`: it was final already; nothing changed). */
  async settleOnce(
    conversationId: string,
    operationId: string,
    status: FinalStatus,
    details: SettleDetails = {},
  ): Promise<{ readonly receipt: UIActionReceipt; readonly changed: boolean }> {
    if (details.result !== undefined && status !== 'succeeded')
      throw new ActionLedgerError('invalid_request', 'Only a succeeded operation carries a result.');
    const { record, changed } = await this.#move(conversationId, operationId, [...ACTIVE], status, details);
    return { receipt: receiptOf(record), changed };
  }

  /**
   * After a reload, nothing is scheduled again (seed 004 §4): an operation that had not started (`queued`,
   * `awaiting_confirmation`) is `cancelled`; a tool action left `running` is `unknown` (its effect cannot be
   * known); an agent action whose message was sent keeps `running` (the agent's answer settles it), one that was
   * claimed but maybe not sent is `unknown`. `active` lists operations this page is still working on (left
   * alone). Returns how many changed.
   */
  async recover(active: ReadonlySet<string> = new Set()): Promise<number> {
    let changed = 0;
    for (const status of ['queued', 'awaiting_confirmation', 'running'] as const) {
      const records = await this.#db.getAllFromIndex('action_ledger', 'by_status', status);
      for (const record of records) {
        if (active.has(record.operationId)) continue;
        if (status !== 'running') {
          await this.#transition(record.conversationId, record.operationId, [status], 'cancelled', {
            message: 'The page closed before this ran; it was not run.',
          });
          changed += 1;
        } else if (record.kind === 'tool' || record.sentAt === undefined) {
          await this.#transition(record.conversationId, record.operationId, ['running'], 'unknown', {
            message:
              record.kind === 'tool'
                ? 'The page closed while this ran; its effect is unknown and it is not run again.'
                : 'The page closed while this was sent to the agent; it may not have arrived and is not sent again.',
          });
          changed += 1;
        }
      }
    }
    return changed;
  }

  /** Agent actions sent and still waiting for the agent's answer, oldest first. */
  async awaitingAgent(): Promise<readonly ActionLedgerRecord[]> {
    const running = await this.#db.getAllFromIndex('action_ledger', 'by_status', 'running');
    return running
      .filter((record) => record.kind === 'agent' && record.sentAt !== undefined)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async #record(conversationId: string, operationId: string): Promise<ActionLedgerRecord> {
    const record = await this.#db.get('action_ledger', operationId);
    // Another conversation's operation is as unknown as one that does not exist.
    if (record === undefined || record.conversationId !== conversationId)
      throw new ActionLedgerError('unknown_operation', 'No operation with this id in this conversation.');
    return record;
  }

  async #transition(
    conversationId: string,
    operationId: string,
    from: readonly ActionReceiptStatus[],
    to: ActionReceiptStatus,
    details: SettleDetails = {},
  ): Promise<UIActionReceipt> {
    return receiptOf((await this.#move(conversationId, operationId, from, to, details)).record);
  }

  /** One status change inside one transaction: `changed` is true only for the caller whose write made it. */
  async #move(
    conversationId: string,
    operationId: string,
    from: readonly ActionReceiptStatus[],
    to: ActionReceiptStatus,
    details: SettleDetails = {},
  ): Promise<{ readonly record: ActionLedgerRecord; readonly changed: boolean }> {
    const tx = this.#db.transaction(['action_ledger', 'audit'], 'readwrite', STRICT);
    const ledger = tx.objectStore('action_ledger');
    const record = await ledger.get(operationId);
    if (record === undefined || record.conversationId !== conversationId) {
      await tx.done;
      throw new ActionLedgerError('unknown_operation', 'No operation with this id in this conversation.');
    }
    if (!from.includes(record.status)) {
      await tx.done;
      return { record, changed: false };
    }
    const now = this.#now();
    const next: ActionLedgerRecord = {
      ...record,
      status: to,
      updatedAt: Math.max(now, record.createdAt),
      ...(details.message === undefined ? {} : { message: details.message.slice(0, 256) }),
      ...(details.result === undefined ? {} : { result: details.result }),
    };
    await ledger.put(next);
    await tx.objectStore('audit').add({
      at: now,
      type: 'action_status',
      appId: 'host',
      version: '',
      conversationId,
      operationId,
      detail: `${record.status} → ${to}`,
    });
    await tx.done;
    this.#options.onChange?.(conversationId, receiptOf(next));
    return { record: next, changed: true };
  }

  /** What the action submits, re-derived from the stored document and the submitted values. */
  async #derive(
    conversationId: string,
    request: UIActionReserveRequest,
  ): Promise<Pick<ActionLedgerRecord, 'kind' | 'title' | 'capabilityId' | 'arguments' | 'prompt'>> {
    const found = await this.#options.documents.findDocument(conversationId, request.documentRef);
    if (found === undefined)
      throw new ActionLedgerError('unknown_document', 'The agent sent no document with this reference here.');
    if (!found.complete)
      throw new ActionLedgerError(
        'stream_not_complete',
        'This stream snapshot is not complete; actions run on complete interfaces only.',
      );
    let document: UIDocument;
    let resolved: ReturnType<typeof resolveUIAction>;
    try {
      document = parseDocument(found.document);
    } catch (error) {
      throw new ActionLedgerError('unknown_document', 'The stored document is not valid.', { cause: error });
    }
    const state = { ...initialState(document), ...request.values };
    try {
      for (const key of Object.keys(request.values))
        if (!Object.hasOwn(document.state, key))
          throw new Error(`${key} is not a state field of the document`);
      assertValidState(document, state);
    } catch (error) {
      throw new ActionLedgerError(
        'invalid_values',
        `The submitted values do not fit the document's state: ${error instanceof Error ? firstIssue(error) : 'invalid'}`,
        { cause: error },
      );
    }
    try {
      resolved = resolveUIAction(document, state, request.actionId);
    } catch (error) {
      throw new ActionLedgerError('unknown_action', `The action cannot be derived: ${firstIssue(error)}`, {
        cause: error,
      });
    }
    if (resolved.kind === 'agent') {
      // The wire message carries a prompt that is not only whitespace (lineup.v1.ui.action): refused here, before
      // anything is recorded, rather than reserved and never sendable.
      if (!UIActionPayloadSchema.shape.prompt.safeParse(resolved.prompt).success)
        throw new ActionLedgerError(
          'unknown_action',
          'The action computes a prompt the agent cannot be sent (empty or only white space); nothing was recorded.',
        );
      return { kind: 'agent', title: document.title, prompt: resolved.prompt };
    }
    const capabilityId = resolved.capabilityId;
    if (!(await this.#options.catalog()).some((capability) => capability.id === capabilityId))
      throw new ActionLedgerError('unknown_capability', `The host offers no capability ${capabilityId}.`);
    return { kind: 'tool', title: document.title, capabilityId, arguments: { ...resolved.arguments } };
  }
}

function documentKey(conversationId: string, ref: UIDocumentRef): string {
  return `${conversationId}\n${ref.sourceCallId}\n${ref.uiId}\n${ref.generation}\n${ref.revision}`;
}

function receiptOf(record: ActionLedgerRecord): UIActionReceipt {
  return {
    operationId: record.operationId,
    requestId: record.requestId,
    documentRef: record.documentRef,
    actionId: record.actionId,
    status: record.status,
    parameterHash: record.parameterHash,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.message === undefined ? {} : { message: record.message }),
    ...(record.result === undefined || record.status !== 'succeeded' ? {} : { result: record.result }),
  };
}

function firstIssue(error: unknown): string {
  if (isLineUpError(error)) {
    const issue = error.issues[0];
    if (issue !== undefined) return `${issue.path} ${issue.message}`.trim();
  }
  return error instanceof Error ? error.message : 'invalid';
}
