/**
 * The composer's examples: the host's own documents (some sent as the agent would), the streamed interface and the
 * inline Surface, each one button.
 */
import { labelText } from '../i18n/conversation.ts';
import { useText } from '../i18n/LanguageProvider.tsx';
import { EXAMPLE_DOCUMENTS, exampleDocumentEnvelope } from './examples.ts';
import type { NewEntry } from './model.ts';
import { ForConversation } from './sent-as-agent.ts';
import { weatherOpenEnvelope } from './surface-example.ts';

export function ExampleButtons({
  agentSends,
  sendAsAgent,
  show,
}: {
  /** Whether an example the agent would send goes from the agent's end (not when a remote agent is connected). */
  readonly agentSends: boolean;
  readonly sendAsAgent: (message: ForConversation) => void;
  /** Shows an entry in the conversation, sent to no one. */
  readonly show: (entry: NewEntry) => void;
}) {
  const text = useText();
  return (
    <fieldset className="host__examples">
      <legend>{text.examples}</legend>
      {EXAMPLE_DOCUMENTS.map((example) => (
        <button
          key={example.key}
          type="button"
          data-example={example.key}
          onClick={() =>
            example.sentByAgent === true && agentSends
              ? sendAsAgent(
                  new ForConversation((id) =>
                    exampleDocumentEnvelope(id, crypto.randomUUID(), example.document),
                  ),
                )
              : show({ kind: 'document', label: example.label, document: example.document })
          }
        >
          {labelText(text, example.label)}
        </button>
      ))}
      <button
        type="button"
        data-example="stream"
        onClick={() => show({ kind: 'stream', label: 'Streamed interface' })}
      >
        {labelText(text, 'Streamed interface')}
      </button>
      <button
        type="button"
        data-example="surface"
        onClick={() => sendAsAgent(new ForConversation((id) => weatherOpenEnvelope(id, crypto.randomUUID())))}
      >
        {text.inlineSurface}
      </button>
    </fieldset>
  );
}
