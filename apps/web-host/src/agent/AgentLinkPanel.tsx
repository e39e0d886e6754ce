/**
 * The agent link question and what follows it, under the page header (view code only: the rules are in
 * agent-link.ts). While an agent from the page link waits for the user, a region asks — its origin, its full
 * address, that it would see the installed tools and could ask to run them — with "Don't connect" and "Connect";
 * the rest of the page stays usable meanwhile, with no agent. The question takes the focus when it appears (unless
 * the user already holds it somewhere), and its buttons accept a press only a moment after it appears, so a
 * click meant for something else never answers it. After "Connect" a short note says where the agent came from,
 * with "Forget this agent"; after "Don't connect", after a refused link, or once the agent is forgotten, a note
 * says that the page runs with no agent.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ARMING_DELAY_MS, currentOpener, returnFocus } from '../focus.ts';
import { useLanguage } from '../i18n/LanguageProvider.tsx';
import { type AgentLinkGate, shownAgentUrl, withoutAgentLink } from './agent-link.ts';
import { AGENT_LINK_TEXTS } from './agent-link-texts.ts';

export function AgentLinkPanel({ gate }: { readonly gate: AgentLinkGate }) {
  const text = AGENT_LINK_TEXTS[useLanguage().language];
  const state = useSyncExternalStore(
    (listener) => gate.subscribe(listener),
    () => gate.state,
    () => gate.state,
  );
  const panel = useRef<HTMLElement>(null);
  const [armed, setArmed] = useState(false);
  /** What had the focus before the question took it: it gets it back after "Connect". */
  const opener = useRef<Element | null>(null);
  /** Set by an answer or a "Forget" in this panel: the note that follows takes the focus. */
  const focusNext = useRef(false);
  const asking = state.phase === 'asking';

  // Another tab of the profile forgot an origin (or remembered one): the list and this page follow.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea === window.localStorage) gate.reload();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [gate]);

  useEffect(() => {
    if (!asking) return;
    const active = document.activeElement;
    if (active === null || active === document.body) {
      opener.current = currentOpener();
      panel.current?.focus();
    }
    const timer = setTimeout(() => setArmed(true), ARMING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [asking]);

  useEffect(() => {
    if (!focusNext.current) return;
    focusNext.current = false;
    if (state.phase === 'allowed') returnFocus(opener.current);
    else panel.current?.focus();
  }, [state]);

  if (state.phase === 'demo' || state.phase === 'configured') return null;

  if (state.phase === 'asking')
    return (
      <section
        ref={panel}
        tabIndex={-1}
        className="host__agent-link host__agent-link--asking"
        aria-labelledby="agent-link-title"
        aria-describedby="agent-link-sees"
        data-agent-link="asking"
      >
        <h2 id="agent-link-title" className="host__agent-link-title">
          {text.question.title}
        </h2>
        <p>{text.question.intro}</p>
        <dl className="host__agent-link-facts">
          <dt>{text.question.origin}</dt>
          <dd>
            <code className="host__agent-link-origin" translate="no" dir="ltr">
              {state.origin}
            </code>
          </dd>
          <dt>{text.question.address}</dt>
          <dd>
            <code className="host__agent-link-url" translate="no" dir="ltr">
              {shownAgentUrl(state.url)}
            </code>
          </dd>
        </dl>
        <p id="agent-link-sees" className="host__agent-link-sees">
          {text.question.sees}
        </p>
        <p>{text.question.trust}</p>
        <p className="host__agent-link-hint">{text.question.remember}</p>
        <div className="host__agent-link-actions">
          <button
            type="button"
            disabled={!armed}
            onClick={() => {
              focusNext.current = true;
              gate.decline();
            }}
          >
            {text.question.decline}
          </button>
          <button
            type="button"
            className="host__agent-link-connect"
            disabled={!armed}
            onClick={() => {
              focusNext.current = true;
              gate.connect();
            }}
          >
            {text.question.connect}
          </button>
        </div>
      </section>
    );

  if (state.phase === 'allowed')
    return (
      <section
        ref={panel}
        tabIndex={-1}
        className="host__agent-link host__agent-link--note"
        aria-label={text.noteLabel}
        data-agent-link="allowed"
      >
        <p>
          {text.allowed(state.origin)}
          {!state.kept && text.gap + text.allowedNotKept}
        </p>
        <button
          type="button"
          onClick={() => {
            focusNext.current = true;
            gate.forget(state.origin);
          }}
        >
          {text.forgetThis}
        </button>
      </section>
    );

  const refused = state.phase === 'refused';
  return (
    <section
      ref={panel}
      tabIndex={-1}
      className={`host__agent-link host__agent-link--${refused ? 'refused' : 'none'}`}
      aria-labelledby="agent-link-title"
      data-agent-link={state.phase}
    >
      <h2 id="agent-link-title" className="host__agent-link-title">
        {refused
          ? text.refusedTitle
          : state.phase === 'declined'
            ? text.declined(state.origin)
            : text.forgotten(state.origin)}
      </h2>
      {refused && (
        <>
          <p>
            {state.source === 'link' ? text.refusedLink : text.refusedConfigured}
            {text.gap + text.problems[state.problem]}
          </p>
          <dl className="host__agent-link-facts">
            <dt>{text.given}</dt>
            <dd>
              <code className="host__agent-link-url" translate="no" dir="ltr">
                {state.given}
              </code>
            </dd>
          </dl>
        </>
      )}
      <p>
        {text.noAgent}
        {state.phase === 'forgotten' && text.gap + text.askAgain}
        {state.phase === 'declined' && text.gap + text.declinedAgain}
      </p>
      {(state.phase === 'declined' || (refused && state.source === 'link')) && (
        <p>
          <a href={withoutAgentLink(window.location.href)}>{text.withoutLink}</a>
        </p>
      )}
    </section>
  );
}
