/**
 * `IntelligentUIView`: renders one Intelligent UI document (seed 002, flow 1 of the design). The document is
 * validated again here with `parseDocument` — whatever the host already checked — and an invalid one renders
 * its issues instead (an unknown version included). The rendered instance owns the local state (seed 004 §6):
 * inputs write it through `updateState`, `set` / `reset` run locally, derived values are recomputed, and
 * nothing goes to the agent. `invoke` actions leave through `onInvoke` (invoke.ts).
 */
import {
  dispatchLocalAction,
  initialState,
  parseDocument,
  resolveUIAction,
  restoreState,
  type UIActionReceipt,
  type UIDocument,
  type UIDocumentRef,
  type UIIssue,
  type UILocalAction,
  UISchemaError,
  type UIState,
  updateState,
} from '@lineup/shared';
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  createValueStore,
  deriveAll,
  RenderContext,
  type RenderContextValue,
  type ValueSnapshot,
} from './context.js';
import { errorText } from './errors.js';
import {
  ACTIVE_RECEIPT_STATUSES,
  checkReceipt,
  type InvokeController,
  type InvokeProgress,
  type InvokeUnavailableReason,
  newRequestId,
  settleReceipt,
  type UIInvokeHandler,
  type UIInvokeRequest,
} from './invoke.js';
import { guessDocumentLanguage } from './language.js';
import { NodeView } from './node-view.js';
import { DEFAULT_HEADING_LEVEL, documentOutline, type HeadingLevel, toHeadingLevel } from './outline.js';
import { actionTexts } from './texts.js';

/** Light or dark colours; `auto` (the default) follows the user's `prefers-color-scheme`. */
export type RendererTheme = 'auto' | 'light' | 'dark';

export interface IntelligentUIViewProps {
  /** The document as decoded JSON (or a document `parseDocument` returned). Validated on every change. */
  readonly document: unknown;
  /** The host's document budget, 1,024–262,144 bytes (seed 002 §9); defaults to the shared maximum. */
  readonly maxDocumentBytes?: number;
  /** Locale of formatted numbers (Result); the page's locale when omitted. */
  readonly locale?: string;
  /** Runs 1.1 `invoke` actions on the host. Without it, invoke buttons are disabled and say why. */
  readonly onInvoke?: UIInvokeHandler;
  /** Passed through to `onInvoke` requests: which persisted document the host should re-derive from. */
  readonly documentRef?: UIDocumentRef;
  /**
   * A state saved earlier (e.g. by `onStateChange`); `restoreState` keeps only declared, valid fields. Read
   * when the view mounts. Without it the view starts from the declared `initial` values (seed 002 §10).
   */
  readonly savedState?: unknown;
  /**
   * Called with the local state when the view mounts (the restored or initial state), and with each new state
   * after that (an input, a local action, an applied result, a new document of the same id).
   */
  readonly onStateChange?: (state: UIState) => void;
  /**
   * The HTML level of the document's title, 1–6 (default 2): the level below the host's heading that contains
   * the document. Headings inside follow in order below it, without skipped levels; Markdown headings are
   * shifted below the heading before them.
   */
  readonly headingLevel?: HeadingLevel;
  /** Light or dark colours; `auto` (default) follows `prefers-color-scheme`. Sets `data-lu-theme`. */
  readonly theme?: RendererTheme;
  /**
   * The language of the document's text (a BCP 47 tag such as `zh-CN`), set as its `lang`. Without it the
   * renderer guesses from the text's script (Han: `zh`, kana: `ja`, Hangul: `ko`) and otherwise leaves `lang`
   * to the page. The renderer's own texts follow `locale`.
   */
  readonly lang?: string;
  /**
   * Receipts the host keeps for this document (its action ledger's `list`), e.g. after a reload or while an
   * action settles elsewhere: an `invoke` button with no click of its own in this view shows the latest receipt
   * of its action. They are only shown — never applied to the state, never run again (seed 002 §10).
   */
  readonly receipts?: readonly UIActionReceipt[];
}

/** Internal props of the stream view: invoke availability follows the stream's status. */
interface DocumentRendererProps extends IntelligentUIViewProps {
  readonly invokeUnavailable?: Exclude<InvokeUnavailableReason, 'no_handler' | null>;
}

type Validated =
  | { readonly ok: true; readonly document: UIDocument }
  | { readonly ok: false; readonly issues: readonly UIIssue[] };

function validate(input: unknown, maxDocumentBytes: number | undefined): Validated {
  try {
    const options = maxDocumentBytes === undefined ? {} : { maxDocumentBytes };
    return { ok: true, document: parseDocument(input, options) };
  } catch (error) {
    if (error instanceof UISchemaError) return { ok: false, issues: error.issues };
    throw error;
  }
}

/** Shown instead of a document that fails validation: what is wrong and where, never the content. */
export function InvalidDocument({
  issues,
  theme,
}: {
  readonly issues: readonly UIIssue[];
  readonly theme?: RendererTheme | undefined;
}) {
  return (
    <section
      className="lu-ui lu-invalid"
      role="alert"
      aria-label="Interface not shown"
      lang="en"
      data-lu-theme={theme ?? 'auto'}
    >
      <p className="lu-invalid-title">This interface could not be shown because its document is not valid.</p>
      <ul className="lu-invalid-issues">
        {issues.map((issue) => (
          <li key={`${issue.path}|${issue.code}|${issue.message}`}>
            <code>{issue.path}</code> {issue.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Renders a DSL 1.0/1.1 document with the 21 trusted components. Give it a React `key` per UI instance: the
 * key decides when local state starts afresh.
 */
export function IntelligentUIView(props: IntelligentUIViewProps) {
  return <DocumentRenderer {...props} />;
}

/** The state a view keeps when its document changes: values carry over within one document id. */
function carryState(previous: UIDocument, next: UIDocument, state: UIState): UIState {
  if (previous.id !== next.id) return initialState(next);
  // A stream frame of the same generation keeps the state definitions (seed 002 §12), so every value stays.
  return previous.state === next.state ? state : restoreState(next, state);
}

export function DocumentRenderer(props: DocumentRendererProps) {
  const validated = useMemo(
    () => validate(props.document, props.maxDocumentBytes),
    [props.document, props.maxDocumentBytes],
  );
  if (!validated.ok) return <InvalidDocument issues={validated.issues} theme={props.theme} />;
  return <ValidDocument {...props} document={validated.document} />;
}

function ValidDocument(props: DocumentRendererProps & { readonly document: UIDocument }) {
  const { document, locale, onInvoke, documentRef, onStateChange, invokeUnavailable, receipts } = props;
  const [state, setState] = useState<UIState>(() =>
    props.savedState === undefined ? initialState(document) : restoreState(document, props.savedState),
  );
  const [stateDocument, setStateDocument] = useState(document);
  let current = state;
  if (stateDocument !== document) {
    // React's "adjust state while rendering" pattern: the new document's state before any child renders.
    current = carryState(stateDocument, document, state);
    setStateDocument(document);
    setState(current);
  }

  // Handlers read and advance the latest state, so two events before a re-render both apply.
  const stateRef = useRef(current);
  stateRef.current = current;
  const latestDocument = useRef(document);
  latestDocument.current = document;
  const onStateChangeRef = useRef(onStateChange);
  onStateChangeRef.current = onStateChange;

  // The last state handed to onStateChange: the mount's state and a carried-over state are reported after
  // the render that made them, a committed one at once.
  const reported = useRef<UIState | null>(null);
  const commit = useCallback((next: UIState) => {
    stateRef.current = next;
    setState(next);
    reported.current = next;
    onStateChangeRef.current?.(next);
  }, []);
  useEffect(() => {
    if (reported.current === current) return;
    reported.current = current;
    onStateChangeRef.current?.(current);
  }, [current]);

  const setField = useCallback(
    (key: string, value: unknown): Error | null => {
      try {
        commit(updateState(latestDocument.current, stateRef.current, key, value));
        return null;
      } catch (error) {
        if (error instanceof Error) return error;
        throw error;
      }
    },
    [commit],
  );

  const runLocalAction = useCallback(
    (action: UILocalAction): Error | null => {
      try {
        commit(dispatchLocalAction(latestDocument.current, stateRef.current, action));
        return null;
      } catch (error) {
        if (error instanceof Error) return error;
        throw error;
      }
    },
    [commit],
  );

  const latestReceipts = useMemo(() => latestByAction(receipts, documentRef), [receipts, documentRef]);

  const invoke = useMemo<InvokeController>(
    () => ({
      unavailable: onInvoke === undefined ? 'no_handler' : (invokeUnavailable ?? null),
      receipt: (actionId: string) => latestReceipts.get(actionId),
      start(actionId: string, onUpdate: (progress: InvokeProgress) => void): void {
        if (onInvoke === undefined) return;
        const snapshot = stateRef.current;
        let action: UIInvokeRequest['action'];
        try {
          action = resolveUIAction(latestDocument.current, snapshot, actionId);
        } catch (error) {
          onUpdate({ phase: 'error', message: errorText(error as Error) });
          return;
        }
        const request: UIInvokeRequest = {
          actionId,
          requestId: newRequestId(),
          values: snapshot,
          action,
          documentRef,
          report: (value: unknown) => {
            try {
              const receipt = checkReceipt(value, request);
              if (ACTIVE_RECEIPT_STATUSES.has(receipt.status))
                onUpdate({ phase: 'receipt', receipt, final: false });
            } catch {
              // An intermediate report that is not a receipt for this request is ignored; the final one decides.
            }
          },
        };
        let pending: Promise<unknown>;
        try {
          pending = Promise.resolve(onInvoke(request));
        } catch (error) {
          pending = Promise.reject(error);
        }
        pending.then(
          (value) => {
            let receipt: ReturnType<typeof checkReceipt>;
            try {
              receipt = checkReceipt(value, request);
            } catch {
              onUpdate({ phase: 'error', message: 'The host answered with an invalid receipt.' });
              return;
            }
            try {
              const settled = settleReceipt(latestDocument.current, snapshot, stateRef.current, receipt);
              if (settled.state !== stateRef.current) commit(settled.state);
              onUpdate(settled.progress);
            } catch (error) {
              onUpdate({
                phase: 'error',
                message: `The result could not be applied: ${errorText(error as Error)}`,
              });
            }
          },
          (error: unknown) =>
            onUpdate({
              phase: 'error',
              message: submitErrorText(error),
            }),
        );
      },
    }),
    [onInvoke, invokeUnavailable, documentRef, commit, latestReceipts],
  );

  const derived = useMemo(() => deriveAll(document, current), [document, current]);
  const values = useMemo<ValueSnapshot>(
    () => ({ document, state: current, derived }),
    [document, current, derived],
  );
  // Nodes read the values from a store, not the context, so a keystroke re-renders only the nodes whose values
  // changed. This render's nodes read this render's snapshot; nodes that did not render (memoized) hear of it
  // after the commit, before the browser paints. Publishing again there leaves the store at the committed
  // snapshot if a background render published one that was never committed.
  const [store] = useState(() => createValueStore(values));
  store.publish(values);
  useLayoutEffect(() => {
    store.publish(values);
    store.notify();
  }, [store, values]);
  const titleLevel = toHeadingLevel(props.headingLevel ?? DEFAULT_HEADING_LEVEL);
  const outline = useMemo(() => documentOutline(document, titleLevel), [document, titleLevel]);
  const texts = actionTexts(locale);
  const context = useMemo<RenderContextValue>(
    () => ({ document, values: store, locale, texts, outline, setField, runLocalAction, invoke }),
    [document, store, locale, texts, outline, setField, runLocalAction, invoke],
  );
  const lang = useMemo(() => props.lang ?? guessDocumentLanguage(document), [props.lang, document]);
  const titleId = useId();
  const Title = `h${titleLevel}` as const;
  // A large document first shows its title, then renders its body in a background (transition) render that
  // yields to input every few milliseconds, so a 200-component document does not freeze the page.
  const [large] = useState(() => countNodes(document.root) > LARGE_DOCUMENT_NODES);
  const showBody = useDeferredValue(true, !large);

  return (
    <section
      className="lu-ui"
      aria-labelledby={titleId}
      data-mode={document.mode}
      data-lu-theme={props.theme ?? 'auto'}
      lang={lang}
    >
      <Title className="lu-title" id={titleId}>
        {document.title}
      </Title>
      <RenderContext.Provider value={context}>
        {showBody ? <NodeView node={document.root} /> : <div className="lu-body-pending" aria-busy="true" />}
      </RenderContext.Provider>
    </section>
  );
}

/** Documents with more components than this render their body in the background at mount. */
const LARGE_DOCUMENT_NODES = 60;

function countNodes(node: UIDocument['root']): number {
  let count = 1;
  if ('children' in node) for (const child of node.children) count += countNodes(child);
  return count;
}

/** The latest receipt of each action among `receipts` (of this document only, when its reference is known). */
function latestByAction(
  receipts: readonly UIActionReceipt[] | undefined,
  ref: UIDocumentRef | undefined,
): ReadonlyMap<string, UIActionReceipt> {
  const latest = new Map<string, UIActionReceipt>();
  for (const receipt of receipts ?? []) {
    if (ref !== undefined && !sameRef(receipt.documentRef, ref)) continue;
    const known = latest.get(receipt.actionId);
    if (
      known === undefined ||
      receipt.createdAt > known.createdAt ||
      (receipt.createdAt === known.createdAt && receipt.updatedAt >= known.updatedAt)
    )
      latest.set(receipt.actionId, receipt);
  }
  return latest;
}

function sameRef(a: UIDocumentRef, b: UIDocumentRef): boolean {
  return (
    a.sourceCallId === b.sourceCallId &&
    a.uiId === b.uiId &&
    a.generation === b.generation &&
    a.revision === b.revision
  );
}

/** Why a submit failed: the host's own message (an `Error` it threw, e.g. a refused reserve), bounded. */
function submitErrorText(error: unknown): string {
  const detail = error instanceof Error ? error.message.slice(0, 300) : '';
  return detail === ''
    ? 'The action could not be submitted.'
    : `The action could not be submitted: ${detail}`;
}
