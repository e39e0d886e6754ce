/**
 * The question an install asks (grant-question.ts): what the app just installed, added or updated declares it needs
 * — per part, the origins its page or view would connect to, load from, and the devices it would use — with "Allow"
 * and "Not now". A modal `<dialog>` like the consent dialog: focus starts on "Not now", Escape is "Not now", the
 * buttons accept a press only a moment after it appears, and the focus returns to what opened it. Nothing is granted
 * until "Allow"; either way every grant stays in the app center to change later.
 */
import { useEffect, useRef, useState } from 'react';
import { ARMING_DELAY_MS, keepTabInside } from '../focus.ts';
import { useText } from '../i18n/LanguageProvider.tsx';
import { useModalDialog } from '../modal-dialog.ts';
import type { AppCenter as AppCenterModel } from './app-center.ts';
import type { GrantQuestion } from './grant-question.ts';

export function GrantQuestionDialog({
  center,
  question,
}: {
  readonly center: AppCenterModel;
  readonly question: GrantQuestion | undefined;
}) {
  const { grant: text, mcp } = useText().apps;
  const dialog = useRef<HTMLDialogElement>(null);
  const notNow = useRef<HTMLButtonElement>(null);
  const [armed, setArmed] = useState<GrantQuestion | undefined>(undefined);
  const isArmed = question !== undefined && armed === question;

  useModalDialog(dialog, question);
  // Each question is armed a moment after it appears.
  useEffect(() => {
    if (question === undefined) return;
    const timer = setTimeout(() => setArmed(question), ARMING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [question]);

  // Once armed, focus starts on "Not now": a stray Enter or Space grants nothing.
  useEffect(() => {
    if (isArmed) notNow.current?.focus();
  }, [isArmed]);

  const answer = (allow: boolean) => {
    if (question === undefined || (allow && !isArmed)) return;
    void center.answerGrantQuestion(question, allow);
  };
  const loads = question?.asks.some((ask) => ask.resources.length > 0) ?? false;

  return (
    <dialog
      ref={dialog}
      tabIndex={-1}
      className="host__consent host__grant-question"
      aria-labelledby="grant-question-title"
      aria-describedby="grant-question-intro"
      onKeyDown={(event) => keepTabInside(event, dialog.current)}
      // Escape is "Not now", never a yes.
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
    >
      {question !== undefined && (
        <form method="dialog" data-app={question.appId} onSubmit={(event) => event.preventDefault()}>
          <h2 id="grant-question-title" className="host__consent-title">
            {text.title(question.name)}
          </h2>
          <p id="grant-question-intro">{text.intro(question.kind === 'mcp_server' ? 'views' : 'page')}</p>
          <ul className="host__grant-asks">
            {question.asks.map((ask) => (
              <li key={ask.part}>
                {ask.uri === undefined
                  ? text.page(ask.connect)
                  : text.view(ask.uri, ask.connect, ask.resources, ask.devices)}
                {ask.withheld !== undefined && <> {mcp.withheld(ask.withheld.domains, ask.withheld.media)}</>}
              </li>
            ))}
          </ul>
          {loads && <p className="host__consent-expiry">{text.noScripts}</p>}
          <p className="host__consent-expiry">{text.later}</p>
          <div className="host__consent-actions">
            <button type="button" ref={notNow} disabled={!isArmed} onClick={() => answer(false)}>
              {text.notNow}
            </button>
            <button
              type="button"
              className="host__consent-allow"
              disabled={!isArmed}
              onClick={() => answer(true)}
            >
              {text.allow}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
