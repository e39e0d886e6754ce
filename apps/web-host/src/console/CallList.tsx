/** The calls sent from the console: each one's progress receipts and final result, live, or that none came in time. */
import { useEffect, useState } from 'react';
import type { ConsoleText } from '../i18n/console.ts';
import { clockTime } from './message-log.ts';
import { callPhase, type WatchedCall } from './tool-call.ts';

/** The current time, moved on when the next watched call runs out of wait (so it shows as overdue). */
function useOverdueClock(calls: readonly WatchedCall[]): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const deadlines = calls
      .filter((call) => call.result === null)
      .map((call) => call.sentAt + call.waitMs)
      .filter((deadline) => deadline > now);
    if (deadlines.length === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(...deadlines) - now);
    return () => clearTimeout(timer);
  }, [calls, now]);
  // A call sent after the last tick is measured from its own send time, never from a stale clock.
  return Math.max(now, ...calls.map((call) => call.sentAt));
}

export function CallList({
  calls,
  text,
}: {
  readonly calls: readonly WatchedCall[];
  readonly text: ConsoleText;
}) {
  const now = useOverdueClock(calls);
  return (
    <section className="host__console-calls">
      <h3>{text.calls}</h3>
      {calls.length === 0 && <p className="host__empty">{text.noCalls}</p>}
      <ol aria-live="polite">
        {calls.map((call) => {
          const phase = callPhase(call, now);
          return (
            <li key={call.callId} className="host__console-call" aria-label={`${call.tool} ${call.callId}`}>
              <div className="host__console-call-head">
                <code>{call.tool}</code>
                <span className={`host__console-phase host__console-phase--${phase}`}>
                  {text.phases[phase]}
                </span>
              </div>
              <div className="host__console-meta">
                <code>{call.callId}</code> · {text.sentAt(clockTime(call.sentAt))} ·{' '}
                <code>{JSON.stringify(call.arguments)}</code>
              </div>
              {call.progress.length > 0 && (
                <div className="host__console-progress">
                  <span className="host__console-label">{text.progress}</span>
                  <ol>
                    {call.progress.map((step) => (
                      <li key={`${step.at}-${step.status}`}>
                        <time dateTime={new Date(step.at).toISOString()}>{clockTime(step.at)}</time>{' '}
                        <code>{step.status}</code>
                        {step.reason !== undefined && <code> ({step.reason})</code>}
                      </li>
                    ))}
                  </ol>
                </div>
              )}
              {call.result !== null ? (
                <div className={`host__console-result host__console-result--${call.result.outcome}`}>
                  <span className="host__console-label">{text.result}</span>{' '}
                  <time dateTime={new Date(call.result.at).toISOString()}>{clockTime(call.result.at)}</time>{' '}
                  <code>{call.result.outcome}</code>
                  {call.result.error !== undefined && (
                    <p>
                      {text.errorCode} <code>{call.result.error.code}</code>
                      {call.result.error.message !== undefined && <> — {call.result.error.message}</>}
                    </p>
                  )}
                  {call.result.result !== undefined && (
                    <section
                      className="host__console-scroll"
                      // Scrolls when long: reachable and named, so a keyboard can read all of it.
                      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1).
                      tabIndex={0}
                      aria-label={text.resultJson(call.callId)}
                    >
                      <pre className="host__console-code">{JSON.stringify(call.result.result, null, 2)}</pre>
                    </section>
                  )}
                </div>
              ) : (
                <p className="host__console-waiting">
                  {phase === 'overdue' ? text.overdue(call.waitMs) : text.waiting}
                </p>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
