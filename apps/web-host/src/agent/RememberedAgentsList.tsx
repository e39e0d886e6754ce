/**
 * The agent origins the user allowed from page links in this browser, each with "Forget" (in the agent console).
 * Forgetting one makes a link to it ask again; if this page is connected to it, that connection ends now.
 */
import { useRef, useState, useSyncExternalStore } from 'react';
import { useLanguage } from '../i18n/LanguageProvider.tsx';
import type { AgentLinkGate } from './agent-link.ts';
import { AGENT_LINK_TEXTS } from './agent-link-texts.ts';

export function RememberedAgentsList({ gate }: { readonly gate: AgentLinkGate }) {
  const texts = AGENT_LINK_TEXTS[useLanguage().language];
  const text = texts.remembered;
  const origins = useSyncExternalStore(
    (listener) => gate.remembered.subscribe(listener),
    () => gate.remembered.origins,
    () => gate.remembered.origins,
  );
  const [said, setSaid] = useState<{ readonly origin: string; readonly kept: boolean } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section className="host__agent-origins" aria-labelledby="agent-origins-title">
      <h3 id="agent-origins-title" ref={heading} tabIndex={-1}>
        {text.title}
      </h3>
      <p className="host__console-hint">{text.intro}</p>
      {origins.length === 0 ? (
        <p className="host__empty">{text.none}</p>
      ) : (
        <ul className="host__agent-origins-list">
          {origins.map((origin) => (
            <li key={origin}>
              <code translate="no" dir="ltr">
                {origin}
              </code>
              <button
                type="button"
                aria-label={text.forgetLabel(origin)}
                onClick={() => {
                  const kept = gate.forget(origin);
                  setSaid({ origin, kept });
                  // The button goes with its entry: the focus stays in the list, on its heading.
                  heading.current?.focus();
                }}
              >
                {text.forget}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="host__agent-origins-said" role="status">
        {said === null ? '' : text.forgot(said.origin) + (said.kept ? '' : texts.gap + text.notKept)}
      </p>
    </section>
  );
}
