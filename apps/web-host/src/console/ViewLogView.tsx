/**
 * What MCP App views logged (conversation/view-log.ts), newest last: level, time, the server and tool of the view,
 * the logger it named and the text — kept in this page only, never sent to the agent.
 */
import { useSyncExternalStore } from 'react';
import { VIEW_LOG_LIMIT, type ViewLog } from '../conversation/view-log.ts';
import type { ConsoleText } from '../i18n/console.ts';
import { clockTime } from './message-log.ts';

export function ViewLogView({ log, text }: { readonly log: ViewLog; readonly text: ConsoleText }) {
  const entries = useSyncExternalStore(
    (listener) => log.subscribe(listener),
    () => log.entries,
    () => log.entries,
  );
  return (
    <section className="host__console-log host__console-view-log" aria-labelledby="console-view-log-title">
      <h3 id="console-view-log-title">{text.viewLog}</h3>
      <p className="host__console-meta">{text.viewLogIntro}</p>
      {log.dropped > 0 && (
        <p className="host__console-meta">{text.viewLogDropped(log.dropped, VIEW_LOG_LIMIT)}</p>
      )}
      <div
        className="host__console-log-list"
        role="log"
        aria-labelledby="console-view-log-title"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        tabIndex={0}
      >
        {entries.length === 0 ? (
          <p className="host__empty">{text.viewLogEmpty}</p>
        ) : (
          <ol>
            {entries.map((entry) => (
              <li key={entry.id} className={`host__console-entry host__view-log--${entry.level}`}>
                <code className="host__console-type">{entry.level}</code>{' '}
                <time dateTime={new Date(entry.at).toISOString()}>{clockTime(entry.at)}</time>{' '}
                <span className="host__console-meta">
                  {entry.server}: {entry.tool}
                  {entry.logger === undefined ? '' : ` · ${entry.logger}`}
                </span>{' '}
                <span className="host__console-summary">
                  {entry.text}
                  {entry.omitted > 0 && text.viewLogOmitted(entry.omitted)}
                </span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
