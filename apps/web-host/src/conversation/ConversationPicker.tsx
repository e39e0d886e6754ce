/** The conversation picker: the stored conversations, newest first, and a new one. */
import type { ConversationRecord } from '@lineup/runtime';
import { useEffect, useState } from 'react';
import type { AgentConnection } from '../agent/connection.ts';
import { useText } from '../i18n/LanguageProvider.tsx';

/** The stored conversations, newest first, re-read whenever `tick` changes. */
export function ConversationPicker({
  connection,
  conversationId,
  tick,
}: {
  readonly connection: AgentConnection;
  readonly conversationId: string;
  readonly tick: number;
}) {
  const text = useText();
  const [conversations, setConversations] = useState<readonly ConversationRecord[]>([]);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` is the signal to read the list again.
  useEffect(() => {
    let active = true;
    connection.store
      .list()
      .then((list) => active && setConversations(list))
      .catch(
        (caught: unknown) => active && setError(caught instanceof Error ? caught.message : String(caught)),
      );
    return () => {
      active = false;
    };
  }, [connection, conversationId, tick]);
  const fail = (caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught));
  return (
    <div className="host__conversations">
      <label htmlFor="conversation-pick">{text.conversations}</label>
      <select
        id="conversation-pick"
        value={conversationId}
        onChange={(event) => void connection.switchTo(event.target.value).catch(fail)}
      >
        {conversations.some((record) => record.id === conversationId) ? null : (
          <option value={conversationId}>{text.untitled}</option>
        )}
        {conversations.map((record) => (
          <option key={record.id} value={record.id}>
            {record.title ?? text.untitled} · {new Date(record.updatedAt).toLocaleString(text.locale)}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => void connection.newConversation().catch(fail)}>
        {text.newConversation}
      </button>
      {error !== null && <span role="alert">{error}</span>}
    </div>
  );
}
