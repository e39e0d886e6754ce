/**
 * The composer's message box: what the user says to the agent. An MCP view may propose a message (drafts.ts); it
 * waits in the box, saying who proposed it, until the user sends or changes it. What views told the agent about
 * themselves (`ui/update-model-context`) goes with the next message: the box says whose.
 */
import { useEffect, useRef, useState } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';
import { onDraft } from './drafts.ts';

export function ChatForm({
  onSend,
  viewsSaying = [],
}: {
  readonly onSend: (text: string) => Promise<void>;
  /** The servers whose views told the agent something that goes with the next message (view-context.ts). */
  readonly viewsSaying?: readonly string[];
}) {
  const label = useText();
  const [text, setText] = useState('');
  /** Who proposed what the box holds (an MCP view's `ui/message`), until the user sends or changes it. */
  const [proposedBy, setProposedBy] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(
    () =>
      onDraft((draft) => {
        // The proposal waits in the box for the user: nothing is sent until they press Send.
        setText(draft.text.slice(0, 16_384));
        setProposedBy(draft.from);
        input.current?.focus();
      }),
    [],
  );
  return (
    <form
      className="host__chat"
      onSubmit={(event) => {
        event.preventDefault();
        const value = text.trim();
        if (value === '') return;
        // The field empties at once, so what the user types next is never wiped when this send resolves
        // later. A message that could not be sent comes back into an empty field; why is already in the
        // conversation's notes.
        setText('');
        setProposedBy(null);
        onSend(value).catch(() => setText((current) => (current === '' ? value : current)));
      }}
    >
      <label htmlFor="chat-message">{label.messageLabel}</label>
      <div className="host__chat-row">
        <input
          ref={input}
          id="chat-message"
          value={text}
          autoComplete="off"
          maxLength={16_384}
          aria-describedby={
            [proposedBy === null ? '' : 'chat-proposed', viewsSaying.length === 0 ? '' : 'chat-view-context']
              .filter(Boolean)
              .join(' ') || undefined
          }
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value === '') setProposedBy(null);
          }}
        />
        <button type="submit" disabled={text.trim() === ''}>
          {label.send}
        </button>
      </div>
      {viewsSaying.length > 0 && (
        <p id="chat-view-context" className="host__chat-proposed">
          {label.viewContext(viewsSaying)}
        </p>
      )}
      {proposedBy !== null && (
        <p id="chat-proposed" className="host__chat-proposed" role="status">
          {label.proposedBy(proposedBy)}
        </p>
      )}
    </form>
  );
}
