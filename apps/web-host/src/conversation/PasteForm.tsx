/** The composer's paste box: a DSL document or a lineup.v1 message, as JSON text, delivered as it is. */
import { useState } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';

/** A pasted document is at most this many characters of JSON text (the DSL's 262,144-byte budget, as text). */
const MAX_PASTE_LENGTH = 262_144;

export function PasteForm({ onValue }: { readonly onValue: (value: unknown) => void }) {
  const label = useText();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="host__paste"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.length > MAX_PASTE_LENGTH) {
          setError(`A document is at most ${MAX_PASTE_LENGTH} characters of JSON.`);
          return;
        }
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          setError('This is not JSON text. Paste a document or a lineup.v1 message as a JSON object.');
          return;
        }
        setError(null);
        onValue(value);
        setText('');
      }}
    >
      <label htmlFor="paste-document">{label.pasteLabel}</label>
      <textarea
        id="paste-document"
        value={text}
        rows={4}
        spellCheck={false}
        placeholder='{"version":"1.0","id":"…","mode":"structured_ui",…}'
        onChange={(event) => setText(event.target.value)}
      />
      <div className="host__paste-actions">
        <button type="submit" disabled={text.trim() === ''}>
          {label.deliver}
        </button>
        {error !== null && (
          <span className="host__paste-error" role="alert">
            {error}
          </span>
        )}
      </div>
    </form>
  );
}
