/** The apps bundled with this host that are not installed, each with its Install button. */
import { useId } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';
import { ActionStatus } from './ActionStatus.tsx';
import type { AppCenter as AppCenterModel } from './app-center.ts';
import type { CatalogueEntry } from './catalogue.ts';
import type { ActionState } from './snapshot.ts';

export function Catalogue({
  center,
  entries,
  actions,
}: {
  readonly center: AppCenterModel;
  readonly entries: readonly CatalogueEntry[];
  readonly actions: ReadonlyMap<string, ActionState>;
}) {
  const text = useText();
  const id = useId();
  return (
    <section className="host__app-catalogue" aria-labelledby={id}>
      <h3 id={id}>{text.apps.catalogue}</h3>
      <ul className="host__app-list">
        {entries.map((entry) => {
          const action = actions.get(entry.id);
          return (
            <li key={entry.id} className="host__app host__app--available">
              <div className="host__app-head">
                <strong>{entry.name}</strong>
                <span className="host__app-state">{text.apps.notInstalled}</span>
                <button
                  type="button"
                  className="host__app-install"
                  disabled={action?.status === 'running'}
                  aria-label={text.apps.named(text.apps.actions.install, entry.name)}
                  onClick={() => void center.installFromCatalogue(entry)}
                >
                  {text.apps.actions.install}
                </button>
              </div>
              <ActionStatus state={action} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
