/**
 * The confirmation the user sees before a capability runs (seed 000 §5.3): the capability, what it will do (the
 * host's words), the agent's reason — as text, never as markup — the arguments, the risk, and when the request
 * expires. A question from a DSL `invoke` button (an interface action, seed 002 §11) says which interface and
 * action asked instead of an agent's reason, and does not expire. A modal `<dialog>`: focus stays inside it, Escape
 * cancels (the call is `cancelled`), "Deny" refuses (`rejected`), and on close the focus returns to what opened it
 * (`returnFocus`). "Remember" is offered only where the runtime allows it (`user_confirmation`); a `restricted`
 * capability asks a second, explicit confirmation. Focus starts on "Deny", and the buttons only accept a press a
 * moment after a question appears, so a double click meant for one question never answers the next.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { currentOpener, returnFocus } from '../focus.ts';
import { useText } from '../i18n.tsx';
import type { ConsentQueue } from './consent.ts';

/** How long after a question appears its buttons start to accept presses. */
const ARMING_DELAY_MS = 500;

export function ConsentDialog({ queue }: { readonly queue: ConsentQueue }) {
  const text = useText();
  // The version changes with the queue (also when a question waits behind the shown one).
  useSyncExternalStore(
    (listener) => queue.subscribe(listener),
    () => queue.version,
    () => 0,
  );
  const request = queue.current;
  const dialog = useRef<HTMLDialogElement>(null);
  const deny = useRef<HTMLButtonElement>(null);
  const [remember, setRemember] = useState(false);
  const [secondStep, setSecondStep] = useState(false);
  /** The question and step on screen: its buttons accept presses once it has been armed. */
  const step = useMemo(() => ({ request, secondStep }), [request, secondStep]);
  const [armedStep, setArmedStep] = useState<object | null>(null);
  const armed = armedStep === step;
  /** What had the focus when the dialog opened (the control that asked, or wherever the user was). */
  const opener = useRef<Element | null>(null);
  // A new question starts unticked, at its first step.
  useEffect(() => {
    setRemember(false);
    setSecondStep(false);
    const element = dialog.current;
    if (element === null) return;
    if (request === null) {
      if (element.open) {
        element.close();
        returnFocus(opener.current);
      }
      opener.current = null;
      return;
    }
    if (!element.open) {
      opener.current = currentOpener();
      element.showModal();
    }
    element.focus();
  }, [request]);

  // Each question, and the second confirmation of a restricted one, is armed a moment after it appears.
  useEffect(() => {
    const timer = setTimeout(() => setArmedStep(step), ARMING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [step]);

  // Once armed, focus starts on "Deny": a stray Enter or Space refuses, never allows.
  useEffect(() => {
    if (armed) deny.current?.focus();
  }, [armed]);

  const answer = (decision: 'allow' | 'deny' | 'dismiss') => {
    // Escape always cancels; a button press counts only once the question has been on screen for a moment.
    if (decision !== 'dismiss' && !armed) return;
    if (request === null) return;
    if (decision === 'allow')
      queue.answer({ decision, remember: remember && request.rememberable === true }, request);
    else queue.answer({ decision }, request);
  };

  return (
    <dialog
      ref={dialog}
      tabIndex={-1}
      className="host__consent"
      aria-labelledby="consent-title"
      aria-describedby="consent-reason"
      // Tab cycles inside the dialog: past the last control back to the first (a modal dialog's page is inert, but
      // the browser would move the focus out to its own toolbar).
      onKeyDown={(event) => {
        if (event.key !== 'Tab' || dialog.current === null) return;
        const controls = [
          ...dialog.current.querySelectorAll<HTMLElement>(
            'button, input, select, textarea, a[href], [tabindex="0"]',
          ),
        ].filter(
          (control) => !(control as HTMLButtonElement).disabled && control.getClientRects().length > 0,
        );
        const first = controls[0];
        const last = controls.at(-1);
        if (first === undefined || last === undefined) return;
        const active = document.activeElement;
        if (event.shiftKey && (active === first || active === dialog.current)) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && active === last) {
          event.preventDefault();
          first.focus();
        }
      }}
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
            {request.origin.kind === 'interface'
              ? text.consent.titleInterface
              : request.origin.kind === 'view'
                ? text.consent.titleView(request.origin.server)
                : text.consent.title}
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
            <dd>{text.consent.descriptions[request.capability.name] ?? request.capability.description}</dd>
            {request.origin.kind === 'interface' ? (
              <>
                <dt>{text.consent.origin}</dt>
                <dd id="consent-reason" className="host__consent-reason">
                  {text.consent.fromInterface(request.origin.title, request.origin.actionId)}
                </dd>
              </>
            ) : request.origin.kind === 'view' ? (
              <>
                <dt>{text.consent.origin}</dt>
                <dd id="consent-reason" className="host__consent-reason">
                  {text.consent.fromView(request.origin.server)}
                </dd>
              </>
            ) : (
              <>
                <dt>{text.consent.reason}</dt>
                <dd id="consent-reason" className="host__consent-reason">
                  {request.reason}
                </dd>
              </>
            )}
            <dt>{text.consent.arguments}</dt>
            <dd>
              <pre className="host__consent-arguments">{JSON.stringify(request.arguments, null, 2)}</pre>
            </dd>
          </dl>
          <p className="host__consent-expiry">
            {Number.isFinite(request.expiresAt)
              ? text.consent.expires(new Date(request.expiresAt).toLocaleString(text.locale))
              : text.consent.noExpiry}
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
            <button type="button" ref={deny} disabled={!armed} onClick={() => answer('deny')}>
              {text.consent.deny}
            </button>
            {request.extraStep && !secondStep ? (
              <button
                type="button"
                className="host__consent-allow"
                disabled={!armed}
                onClick={() => setSecondStep(true)}
              >
                {text.consent.allow}
              </button>
            ) : (
              <button
                type="button"
                className="host__consent-allow"
                disabled={!armed}
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
