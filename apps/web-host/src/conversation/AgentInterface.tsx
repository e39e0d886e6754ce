/**
 * The interfaces the agent sent, as documents (`ui.document`) or as streams read back from their checkpoints: their
 * actions run through the ledger (entry-actions.ts), and the receipts it kept are shown.
 */
import { IntelligentUIStreamView, IntelligentUIView } from '@lineup/renderer-react';
import type { UIDocumentRef, UIStreamState } from '@lineup/shared';
import { useMemo } from 'react';
import { useReceipts } from '../capabilities/receipts.ts';
import { type EntryActions, invokeHandler } from './entry-actions.ts';
import { INTERFACE_HEADING_LEVEL } from './interface-entries.ts';
import type { Entry } from './model.ts';

/** An interface's kept state, and where its changes go (absent for an interface that keeps none). */
type StateProps = { readonly savedState?: unknown; readonly onStateChange?: (state: unknown) => void };

/** The reference of a document the agent sent as `ui.document` (its envelope id is the source call). */
export function documentRefOf(entry: Extract<Entry, { kind: 'document' }>): UIDocumentRef | undefined {
  const document = entry.document as { id?: unknown } | null;
  if (entry.viewKey === undefined || typeof document?.id !== 'string') return undefined;
  return { sourceCallId: entry.viewKey, uiId: document.id, generation: 0, revision: 0 };
}

/** An interface the agent sent: its actions run through the ledger, and its kept receipts are shown. */
export function AgentDocument({
  document,
  documentRef,
  actions,
  locale,
  stateProps,
}: {
  readonly document: unknown;
  readonly documentRef: UIDocumentRef | undefined;
  readonly actions: EntryActions | null;
  readonly locale: string;
  readonly stateProps: StateProps;
}) {
  const onInvoke = useMemo(() => (actions === null ? undefined : invokeHandler(actions)), [actions]);
  const receipts = useReceipts(actions?.receipts ?? null, actions?.conversationId ?? null, documentRef);
  return (
    <IntelligentUIView
      document={document}
      locale={locale}
      headingLevel={INTERFACE_HEADING_LEVEL}
      {...(documentRef === undefined ? {} : { documentRef })}
      {...(onInvoke === undefined ? {} : { onInvoke, receipts })}
      {...stateProps}
    />
  );
}

export function AgentStream({
  stream,
  interrupted,
  actions,
  locale,
  stateProps,
}: {
  readonly stream: UIStreamState;
  readonly interrupted: boolean;
  readonly actions: EntryActions | null;
  readonly locale: string;
  readonly stateProps: StateProps;
}) {
  const onInvoke = useMemo(() => (actions === null ? undefined : invokeHandler(actions)), [actions]);
  const { sourceCallId, uiId, generation, revision } = stream;
  const ref = useMemo(
    () => ({ sourceCallId, uiId, generation, revision }),
    [sourceCallId, uiId, generation, revision],
  );
  const receipts = useReceipts(actions?.receipts ?? null, actions?.conversationId ?? null, ref);
  return (
    <IntelligentUIStreamView
      stream={stream}
      interrupted={interrupted}
      locale={locale}
      headingLevel={INTERFACE_HEADING_LEVEL}
      {...(onInvoke === undefined ? {} : { onInvoke, receipts })}
      {...stateProps}
    />
  );
}
