/**
 * The confirmation the user sees before a capability runs (seed 000 §5.3), or before an Agent Tool call or a view's
 * call runs (seed 003 §2.3; the tool's facts are ToolConsentFacts.tsx): for a capability, the capability, what it will do (the
 * host's words), the agent's reason — as text, never as markup — the arguments, the risk, and when the request
 * expires. A question from a DSL `invoke` button (an interface action, seed 002 §11) says which interface and
 * action asked instead of an agent's reason, and does not expire. A modal `<dialog>`: focus stays inside it, Escape
 * cancels (the call is `cancelled`), "Deny" refuses (`rejected`), and on close the focus returns to what opened it
 * (`returnFocus`). "Remember" is offered only where the runtime allows it (`user_confirmation`); a `restricted`
 * capability asks a second, explicit confirmation. Focus starts on "Deny", and the buttons only accept a press a
 * moment after a question appears, so a double click meant for one question never answers the next.
 */
import type { ConsentRequest } from '@lineup/runtime';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ARMING_DELAY_MS, keepTabInside } from '../focus.ts';
import type { HostText } from '../i18n/host-text.ts';
import { useText } from '../i18n/LanguageProvider.tsx';
import { useModalDialog } from '../modal-dialog.ts';
import type { ConsentItem, ConsentQueue } from './consent.ts';
import { ToolConsentFacts } from './ToolConsentFacts.tsx';
import { useToolConsentText } from './tool-consent-texts.ts';

export function ConsentDialog({
  queue,
  agent,
  shownConversation,
}: {
  readonly queue: ConsentQueue;
  /** The agent that asks, as the user knows it (for a tool call's question). */
  readonly agent: string;
  /** The conversation the host shows now. */
  readonly shownConversation: string | null;
}) {
  const text = useText();
  const toolText = useToolConsentText();
  // The version changes with the queue (also when a question waits behind the shown one).
  useSyncExternalStore(
    (listener) => queue.subscribe(listener),
    () => queue.version,
    () => 0,
  );
  const item = queue.current;
  const dialog = useRef<HTMLDialogElement>(null);
  const deny = useRef<HTMLButtonElement>(null);
  const [remember, setRemember] = useState(false);
  const [secondStep, setSecondStep] = useState(false);
  /** The question and step on screen: its buttons accept presses once it has been armed. */
  const step = useMemo(() => ({ item, secondStep }), [item, secondStep]);
  const [armedStep, setArmedStep] = useState<object | null>(null);
  const armed = armedStep === step;
  useModalDialog(dialog, item);
  // A new question starts unticked, at its first step.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset for each new question.
  useEffect(() => {
    setRemember(false);
    setSecondStep(false);
  }, [item]);

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
    if (item === null) return;
    if (decision === 'allow') queue.answer({ decision, remember: remember && rememberable(item) }, item);
    else queue.answer({ decision }, item);
  };
  const extraStep =
    item !== null && (item.kind === 'tool' ? item.question.extraStep : item.request.extraStep);

  return (
    <dialog
      ref={dialog}
      tabIndex={-1}
      className="host__consent"
      aria-labelledby="consent-title"
      aria-describedby="consent-reason"
      // Tab cycles inside the dialog.
      onKeyDown={(event) => keepTabInside(event, dialog.current)}
      // Escape closes a modal dialog: that is a cancel, never a yes.
      onCancel={(event) => {
        event.preventDefault();
        answer('dismiss');
      }}
    >
      {item !== null && (
        <form
          // Which question is on screen (a tool call's or a capability call's id): the next one may look the same.
          data-question={item.kind === 'tool' ? item.question.callId : item.request.callId}
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          <h2 id="consent-title" className="host__consent-title">
            {item.kind === 'tool'
              ? item.question.origin.kind === 'view'
                ? toolText.titleView(item.question.app.name)
                : toolText.title
              : item.request.origin.kind === 'interface'
                ? text.consent.titleInterface
                : item.request.origin.kind === 'view'
                  ? text.consent.titleView(item.request.origin.server)
                  : text.consent.title}
          </h2>
          {item.kind === 'tool' ? (
            <ToolConsentFacts question={item.question} agent={agent} shownConversation={shownConversation} />
          ) : (
            <CapabilityFacts request={item.request} text={text} />
          )}
          {rememberable(item) && (
            <label className="host__consent-remember">
              <input
                type="checkbox"
                checked={remember}
                onChange={(event) => setRemember(event.target.checked)}
              />{' '}
              {item.kind === 'tool' ? toolText.remember(item.question.tool) : text.consent.remember}
            </label>
          )}
          {secondStep && (
            <p className="host__consent-extra" role="alert">
              {item.kind === 'tool' ? toolText.extraStep : text.consent.extraStep}
            </p>
          )}
          <div className="host__consent-actions">
            <button type="button" ref={deny} disabled={!armed} onClick={() => answer('deny')}>
              {text.consent.deny}
            </button>
            {extraStep && !secondStep ? (
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
                {secondStep
                  ? item.kind === 'tool'
                    ? toolText.confirmAgain
                    : text.consent.confirmAgain
                  : text.consent.allow}
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

function rememberable(item: ConsentItem): boolean {
  return item.kind === 'tool' ? item.question.rememberable : item.request.rememberable;
}

/** A capability call's facts: the capability, what it will do, who asks and why, the arguments, the expiry. */
function CapabilityFacts({ request, text }: { readonly request: ConsentRequest; readonly text: HostText }) {
  return (
    <>
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
    </>
  );
}
