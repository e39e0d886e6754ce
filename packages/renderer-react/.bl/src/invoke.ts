/**
 * DSL 1.1 `invoke` on the renderer's side (seed 002 §10–§11, seed 004 §4 and §6). The renderer never runs an
 * action itself: an explicit click resolves what the document would submit, snapshots the state, and hands a
 * request with a fresh `requestId` to the host's `onInvoke`. The host reserves, confirms and executes it and
 * answers with a receipt. A successful result is written through `resultMap` only if the state is still the
 * one of the click; otherwise the user's newer values are kept and a conflict is shown (seed 002 §10).
 */
import {
  applyActionResult,
  LineUpProtocolError,
  parseUIActionReceipt,
  type ResolvedUIAction,
  UI_ACTION_ACTIVE_STATUSES,
  type UIActionReceipt,
  type UIDocument,
  type UIDocumentRef,
  type UIState,
} from '@lineup/shared';

/** What the renderer hands to the host for one explicit click on an `invoke` action. */
export interface UIInvokeRequest {
  /** The action id the document declares (`actions.<actionId>`). */
  readonly actionId: string;
  /** New for every explicit click; the host reuses it for network retries of this click only. */
  readonly requestId: string;
  /** The whole local state at the click: the reserve request's `values`. */
  readonly values: UIState;
  /**
   * What the document resolves the action to in that state (capability arguments or agent prompt), for
   * display and checks. The host re-derives it from its own persisted document and never trusts this copy.
   */
  readonly action: ResolvedUIAction;
  /** The document reference the host passed in, or the stream's (sourceCallId, uiId, generation, revision). */
  readonly documentRef: UIDocumentRef | undefined;
  /** Reports an intermediate receipt (`queued`, `awaiting_confirmation`, `running`) while the action runs. */
  readonly report: (receipt: unknown) => void;
}

/**
 * Runs one action request on the host and resolves with its receipt (a `UIActionReceipt`, validated here).
 * Rejecting means the request could not be submitted; the renderer shows that and keeps the state.
 */
export type UIInvokeHandler = (request: UIInvokeRequest) => Promise<unknown>;

/** Why invoke actions are not available, or `null` when they are. */
export type InvokeUnavailableReason = 'no_handler' | 'streaming' | 'stream_ended' | null;

export interface InvokeController {
  readonly unavailable: InvokeUnavailableReason;
  /** The latest receipt the host kept for an action of this document (shown when there is no click here). */
  readonly receipt: (actionId: string) => UIActionReceipt | undefined;
  /** Starts one click; never throws. `onUpdate` receives each step of the action's progress. */
  readonly start: (actionId: string, onUpdate: (progress: InvokeProgress) => void) => void;
}

/** What a button shows about its last action. */
export type InvokeProgress =
  | { readonly phase: 'submitting' }
  | { readonly phase: 'receipt'; readonly receipt: UIActionReceipt; readonly final: boolean }
  /** The result arrived after the user changed the state: it was not written (seed 002 §10). */
  | { readonly phase: 'conflict'; readonly receipt: UIActionReceipt }
  | { readonly phase: 'error'; readonly message: string };

/** Receipt statuses of an action still in progress (seed 004 §4), from the action protocol. */
export const ACTIVE_RECEIPT_STATUSES: ReadonlySet<string> = new Set(UI_ACTION_ACTIVE_STATUSES);

/** Checks a receipt from the host against the request it answers. */
export function checkReceipt(
  value: unknown,
  request: Pick<UIInvokeRequest, 'actionId' | 'requestId'>,
): UIActionReceipt {
  const receipt = parseUIActionReceipt(value);
  if (receipt.requestId !== request.requestId || receipt.actionId !== request.actionId)
    throw new LineUpProtocolError([
      {
        path: receipt.requestId !== request.requestId ? 'requestId' : 'actionId',
        code: 'invalid_value',
        message: 'The receipt answers another request.',
      },
    ]);
  return receipt;
}

/** Two flat states hold the same values (seed 002 §10: the comparison covers the whole state). */
export function sameState(a: UIState, b: UIState): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.hasOwn(b, key) || !Object.is(a[key], b[key])) return false;
  return true;
}

/**
 * What a final receipt does to the state: a `succeeded` tool receipt with a result is written through the
 * action's `resultMap` when `current` still equals `snapshot`, else reported as a conflict. Returns the new
 * state (or `current` when nothing is written) and the progress to show. Throws the `UIActionError` /
 * `UIStateError` of `applyActionResult` when the result does not fit the state: nothing is written then.
 */
export function settleReceipt(
  document: UIDocument,
  snapshot: UIState,
  current: UIState,
  receipt: UIActionReceipt,
): { state: UIState; progress: InvokeProgress } {
  const definition = document.version === '1.1' ? document.actions[receipt.actionId] : undefined;
  const maps =
    receipt.status === 'succeeded' &&
    receipt.result !== undefined &&
    definition?.kind === 'tool' &&
    definition.resultMap !== undefined &&
    Object.keys(definition.resultMap).length > 0;
  if (!maps) return { state: current, progress: { phase: 'receipt', receipt, final: true } };
  if (!sameState(snapshot, current)) return { state: current, progress: { phase: 'conflict', receipt } };
  const state = applyActionResult(document, current, receipt.actionId, receipt.result);
  return { state, progress: { phase: 'receipt', receipt, final: true } };
}

/** A request id: 32 random hex digits (fits the action protocol's id rules). */
export function newRequestId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let id = 'r';
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
  return id;
}
