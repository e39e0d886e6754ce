/**
 * What the consent dialog shows about an Agent Tool call or a view's call, before anything is sent anywhere: the app
 * and its version (for an MCP server, its name, host and whether the user trusts it), the tool with its risk and what
 * its server claims, its full description and the exact arguments — each with the characters that render as nothing
 * made visible and flagged — who asks in which conversation, and when the call ends unanswered. Every text as text.
 */
import type { ToolConsentQuestion } from '@lineup/runtime';
import { findHiddenCharacters, revealHiddenCharacters } from '@lineup/shared';
import { useText } from '../i18n/LanguageProvider.tsx';
import { useToolConsentText } from './tool-consent-texts.ts';

/** Top-level arguments listed one per line; the rest are counted, and the full JSON is one click away. */
const SHOWN_ARGUMENTS = 8;
/** Characters of one argument's value on its line. */
const SHOWN_VALUE_LENGTH = 160;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function valueText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > SHOWN_VALUE_LENGTH ? `${text.slice(0, SHOWN_VALUE_LENGTH)}…` : text;
}

export function ToolConsentFacts({
  question,
  agent,
  shownConversation,
}: {
  readonly question: ToolConsentQuestion;
  /** The agent that asks, as the user knows it (its URL, or the built-in demo agent). */
  readonly agent: string;
  /** The conversation the host shows now (the question may belong to another). */
  readonly shownConversation: string | null;
}) {
  const text = useToolConsentText();
  const locale = useText().locale;
  const { app } = question;
  const hidden = findHiddenCharacters(question.description).length;
  const json = JSON.stringify(question.arguments, null, 2);
  const hiddenInArguments = findHiddenCharacters(json).length;
  const entries = Object.entries(question.arguments);
  const conversation =
    question.conversationId === shownConversation
      ? text.thisConversation
      : text.otherConversation(question.conversationId);
  return (
    <>
      <dl className="host__consent-facts">
        <dt>{app.kind === 'mcp_server' ? text.server : text.app}</dt>
        <dd>
          {app.server === undefined
            ? text.appValue(app.name, app.version)
            : text.serverValue(app.server.name, hostOf(app.server.url))}
          {app.kind === 'mcp_server' && (
            <span className="host__consent-trust"> · {app.trusted ? text.trusted : text.untrusted}</span>
          )}
        </dd>
        <dt>{text.tool}</dt>
        <dd>
          <code>{question.tool}</code>
          <span className={`host__consent-risk host__consent-risk--${question.risk}`}>
            {text.risk[question.risk]}
          </span>
          {question.claims?.readOnly === true && (
            <span className="host__consent-claim"> {text.claims.readOnly}</span>
          )}
          {question.claims?.destructive === true && (
            <span className="host__consent-claim host__consent-claim--destructive">
              {' '}
              {text.claims.destructive}
            </span>
          )}
        </dd>
        <dt>{text.description}</dt>
        <dd id="consent-reason" className="host__consent-reason">
          {question.description === '' ? text.noDescription : revealHiddenCharacters(question.description)}
          {hidden > 0 && (
            <span className="host__consent-hidden" role="note">
              {' '}
              {text.hidden(hidden)}
            </span>
          )}
        </dd>
        <dt>{text.arguments}</dt>
        <dd>
          {entries.length === 0 ? (
            <p className="host__consent-none">{text.noArguments}</p>
          ) : (
            <ul className="host__consent-argument-list">
              {entries.slice(0, SHOWN_ARGUMENTS).map(([key, value]) => (
                <li key={key}>
                  <code>{revealHiddenCharacters(key)}</code>: {revealHiddenCharacters(valueText(value))}
                </li>
              ))}
              {entries.length > SHOWN_ARGUMENTS && <li>{text.more(entries.length - SHOWN_ARGUMENTS)}</li>}
            </ul>
          )}
          {hiddenInArguments > 0 && (
            <p className="host__consent-hidden" role="note">
              {text.hidden(hiddenInArguments)}
            </p>
          )}
          <details className="host__consent-json">
            <summary>{text.fullJson}</summary>
            <pre className="host__consent-arguments">{revealHiddenCharacters(json)}</pre>
          </details>
        </dd>
        <dt>{text.askedBy}</dt>
        <dd>
          {question.origin.kind === 'view'
            ? text.askedByView(app.name, conversation)
            : text.askedByAgent(agent, conversation)}
        </dd>
      </dl>
      <p className="host__consent-expiry">{text.deadline(new Date(question.dueAt).toLocaleString(locale))}</p>
      {!question.rememberable && <p className="host__consent-expiry">{text.neverRemembered}</p>}
    </>
  );
}
