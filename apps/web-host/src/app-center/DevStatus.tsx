import { useId } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';
import { ActionStatus } from './ActionStatus.tsx';
import type { ActionState } from './snapshot.ts';

/** The MiniApp in development this page follows (`?dev=`): where from, and its last install. */
export function DevStatus({ url, state }: { readonly url: string; readonly state: ActionState }) {
  const text = useText();
  const id = useId();
  return (
    <section className="host__app-dev" aria-labelledby={id}>
      <h3 id={id}>{text.apps.dev.title}</h3>
      <p>
        {text.apps.dev.following} <code>{url}</code>
      </p>
      <p className="host__app-hint">{text.apps.dev.hint}</p>
      <ActionStatus state={state} />
    </section>
  );
}
