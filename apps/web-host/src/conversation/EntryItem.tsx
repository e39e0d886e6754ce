/**
 * One entry of the conversation, by its kind: a DSL document (the agent's, or a local one), a replayed or
 * read-back stream, an inline Surface, an MCP server's view, a chat turn, or a note (what went to the agent, what
 * was refused).
 */
import { IntelligentUIView } from '@lineup/renderer-react';
import type { SurfaceInstances } from '@lineup/surface-host';
import { lazy, memo, Suspense, useMemo } from 'react';
import type { HostText } from '../i18n/host-text.ts';
import { AgentDocument, AgentStream, documentRefOf } from './AgentInterface.tsx';
import type { EntryActions } from './entry-actions.ts';
import { entryName, INTERFACE_HEADING_LEVEL } from './interface-entries.ts';
import { type Entry, mcpViewStateKey } from './model.ts';
import { StreamEntry } from './StreamEntry.tsx';
import { SurfaceEntry } from './SurfaceEntry.tsx';

/** An MCP server's view (with the MCP Apps SDK's bridge): loaded the first time a conversation shows one. */
const McpViewEntry = lazy(() =>
  import('./McpViewEntry.tsx').then((module) => ({ default: module.McpViewEntry })),
);

/**
 * One entry of the list. Memoized: when envelopes arrive, only the entries they add or change render; the others
 * (and their Markdown, their documents' validation) are left as they are.
 */
export const EntryItem = memo(function EntryItem({
  entry,
  text,
  actions,
  instances,
  savedState,
  saveViewState,
  onUserClose,
}: {
  readonly entry: Entry;
  readonly text: HostText;
  readonly actions: EntryActions | null;
  readonly instances: SurfaceInstances;
  readonly savedState: unknown;
  readonly saveViewState: (viewKey: string, state: unknown) => void;
  readonly onUserClose: (instanceId: string) => void;
}) {
  const viewKey =
    entry.kind === 'document' || entry.kind === 'checkpoints'
      ? entry.viewKey
      : entry.kind === 'mcp_view'
        ? mcpViewStateKey(entry.callId)
        : undefined;
  const onStateChange = useMemo(
    () => (viewKey === undefined ? undefined : (state: unknown) => saveViewState(viewKey, state)),
    [saveViewState, viewKey],
  );
  return (
    <li
      className={`host__entry host__entry--${entry.kind}`}
      aria-label={entryName(text, entry)}
      data-entry-key={entry.key}
      tabIndex={-1}
    >
      <EntryView
        entry={entry}
        text={text}
        actions={actions}
        instances={instances}
        savedState={savedState}
        onStateChange={onStateChange}
        onUserClose={onUserClose}
      />
    </li>
  );
});

/** A chat turn of the agent as a one-node DSL document, so its Markdown takes the DSL's Markdown allowlist. */
function markdownDocument(key: number, text: string) {
  return {
    version: '1.0',
    id: `chat-${key}`,
    mode: 'structured_ui',
    title: 'Agent',
    state: {},
    derived: {},
    root: { id: 'text', type: 'Markdown', props: { text } },
  };
}

/** An agent's chat turn: its Markdown as a one-node document, made once per text. */
function AgentChatText({ entryKey, text }: { readonly entryKey: number; readonly text: string }) {
  const document = useMemo(() => markdownDocument(entryKey, text), [entryKey, text]);
  return <IntelligentUIView document={document} headingLevel={INTERFACE_HEADING_LEVEL} />;
}

function EntryView({
  entry,
  text,
  actions,
  instances,
  savedState,
  onStateChange,
  onUserClose,
}: {
  readonly entry: Entry;
  readonly text: HostText;
  readonly actions: EntryActions | null;
  readonly instances: SurfaceInstances;
  readonly savedState: unknown;
  readonly onStateChange: ((state: unknown) => void) | undefined;
  readonly onUserClose: (instanceId: string) => void;
}) {
  const stateProps = {
    ...(savedState === undefined ? {} : { savedState }),
    ...(onStateChange === undefined ? {} : { onStateChange }),
  };
  switch (entry.kind) {
    case 'document':
      // A document the agent sent (recorded, with its envelope id) can run actions; a local one cannot.
      return entry.viewKey === undefined ? (
        <IntelligentUIView
          document={entry.document}
          locale={text.locale}
          headingLevel={INTERFACE_HEADING_LEVEL}
          {...stateProps}
        />
      ) : (
        <AgentDocument
          document={entry.document}
          documentRef={documentRefOf(entry)}
          actions={actions}
          locale={text.locale}
          stateProps={stateProps}
        />
      );
    case 'stream':
      return <StreamEntry id={entry.key} />;
    case 'checkpoints':
      return (
        <AgentStream
          stream={entry.stream}
          interrupted={entry.interrupted === true}
          actions={actions}
          locale={text.locale}
          stateProps={stateProps}
        />
      );
    case 'surface':
      return (
        <SurfaceEntry
          payload={entry.payload}
          state={entry.state}
          instances={instances}
          onUserClose={() => onUserClose(entry.payload.instance_id)}
        />
      );
    case 'mcp_view':
      return (
        <Suspense fallback={<p className="host__empty">{text.mcpView.loading}</p>}>
          <McpViewEntry
            entry={entry}
            onClose={() => onUserClose(`view:${entry.callId}`)}
            savedState={savedState}
            {...(onStateChange === undefined ? {} : { onStateChange })}
          />
        </Suspense>
      );
    case 'chat':
      return (
        <div className={`host__chat-turn host__chat-turn--${entry.from}`}>
          <span className="host__chat-from">{entry.from === 'user' ? text.you : text.agent}</span>
          {entry.via !== undefined && <span className="host__chat-via">{text.viaAction(entry.via)}</span>}
          {entry.from === 'user' ? (
            <p className="host__chat-text">{entry.text}</p>
          ) : (
            <AgentChatText entryKey={entry.key} text={entry.text} />
          )}
          {entry.pending === true && <span className="host__pending">{text.queued}</span>}
        </div>
      );
    case 'note':
      return (
        <div className={`host__note host__note--${entry.tone}`}>
          <span className="host__note-label">{entry.tone === 'to-agent' ? text.toAgent : text.refused}</span>{' '}
          <code>{entry.text}</code>
          {entry.pending === true && <span className="host__pending">{text.queued}</span>}
          {entry.detail !== undefined && (
            <details className="host__note-detail">
              <summary>{text.wholeMessage}</summary>
              <pre>{entry.detail}</pre>
            </details>
          )}
        </div>
      );
  }
}
