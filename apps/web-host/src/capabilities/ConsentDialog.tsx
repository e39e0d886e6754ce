/**
 * The confirmation the user sees before a capability runs (seed 000 §5.3): the capability, what it will do (the
 * host's words), the agent's reason — as text, never as markup — the arguments, the risk, and when the request
 * expires. A modal `<dialog>`: focus stays inside it, Escape cancels (the call is `cancelled`), "Deny" refuses
 * (`rejected`). "Remember" is offered only where the runtime allows it (`user_confirmation`); a `restricted`
 * capability asks a second, explicit confirmation.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useText } from '../i18n.tsx';
import type { ConsentQueue } from './consent.ts';

export function ConsentDialog({ queue }: { readonly queue: ConsentQueue }) {
  const text = useText();
  const request = useSyncExternalStore(
    (listener) => queue.subscribe(listener),
    () => queue.current,
    () => null,
  );
  const dialog = useRef<HTMLDialogElement>(null);
  const [remember, setRemember] = useState(false);
  const [secondStep, setSecondStep] = useState(false);
  // A new question starts unticked, at its first step.
  useEffect(() => {
    setRemember(false);
    setSecondStep(false);
    const element = dialog.current;
    if (element === null) return;
    if (request !== null && !element.open) element.showModal();
    if (request === null && element.open) element.close();
  }, [request]);

  const answer = (decision: 'allow' | 'deny' | 'dismiss') => {
    if (decision === 'allow')
      queue.answer({ decision, remember: remember && request?.rememberable === true });
    else queue.answer({ decision });
  };

  return (
    <dialog
      ref={dialog}
      className="host__consent"
      aria-labelledby="consent-title"
      aria-describedby="consent-reason"
      // Escape closes a modal dialog: that is a cancel, never a yes.
      onCancel={(event) => {
        event.preventDefault();
        answer('dismiss');
      }}
    >
      {request !== null && (
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          <h2 id="consent-title" className="host__consent-title">
            {text.consent.title}
          </h2>
          <dl className="host__consent-facts">
            <dt>{text.consent.capability}</dt>
            <dd>
              <code>{request.capability.name}</code> {request.capability.version}
              <span className={`host__consent-risk host__consent-risk--${request.capability.risk}`}>
                {text.consent.risk[request.capability.risk] ?? request.capability.risk}
              </span>
            </dd>
            <dt>{text.consent.what}</dt>
            <dd>{request.capability.description}</dd>
            <dt>{text.consent.reason}</dt>
            <dd id="consent-reason" className="host__consent-reason">
              {request.reason}
            </dd>
            <dt>{text.consent.arguments}</dt>
            <dd>
              <pre className="host__consent-arguments">{JSON.stringify(request.arguments, null, 2)}</pre>
            </dd>
          </dl>
          <p className="host__consent-expiry">
            {text.consent.expires(new Date(request.expiresAt).toLocaleTimeString(text.locale))}
          </p>
          {request.rememberable && (
            <label className="host__consent-remember">
              <input
                type="checkbox"
                checked={remember}
                onChange={(event) => setRemember(event.target.checked)}
              />{' '}
              {text.consent.remember}
            </label>
          )}
          {secondStep && (
            <p className="host__consent-extra" role="alert">
              {text.consent.extraStep}
            </p>
          )}
          <div className="host__consent-actions">
            <button type="button" onClick={() => answer('deny')}>
              {text.consent.deny}
            </button>
            {request.extraStep && !secondStep ? (
              <button type="button" className="host__consent-allow" onClick={() => setSecondStep(true)}>
                {text.consent.allow}
              </button>
            ) : (
              <button
                type="button"
                className="host__consent-allow"
                // biome-ignore lint/a11y/noAutofocus: the second step asks for a deliberate second press.
                autoFocus={secondStep}
                onClick={() => answer('allow')}
              >
                {secondStep ? text.consent.confirmAgain : text.consent.allow}
              </button>
            )}
          </div>
          {queue.waiting > 0 && (
            <p className="host__consent-waiting">{text.consent.waiting(queue.waiting)}</p>
          )}
        </form>
      )}
    </dialog>
  );
}
