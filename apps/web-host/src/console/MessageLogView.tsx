/** The console's message log: every lineup.v1 envelope in and out, newest last, filtered by type. */
import { memo, useLayoutEffect, useRef, useState } from 'react';
import type { ConsoleText } from '../i18n/console.ts';
import {
  clockTime,
  filterLog,
  type LogEntry,
  MESSAGE_LOG_LIMIT,
  type MessageLog,
  summarize,
} from './message-log.ts';

/** How close to the end (in pixels) the reader must be for the log to follow new messages. */
const FOLLOW_THRESHOLD = 24;

export function MessageLogView({
  log,
  text,
  open,
}: {
  readonly log: MessageLog;
  readonly text: ConsoleText;
  readonly open: boolean;
}) {
  const [query, setQuery] = useState('');
  const shown = filterLog(log.entries, query);
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const last = shown.at(-1)?.sequence;
  // Newest last: the view follows new messages while the reader is at the end, and stays put otherwise. Not
  // while the panel is closed: reading scrollHeight lays the page out, once per update during a burst.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `last` is what changes when a message arrives.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (open && element !== null && following.current) element.scrollTop = element.scrollHeight;
  }, [last, open]);
  return (
    <section className="host__console-log">
      <h3 id="console-log-title">{text.log}</h3>
      <div className="host__console-log-tools">
        <label htmlFor="console-log-filter">{text.filter}</label>
        <input
          id="console-log-filter"
          type="search"
          placeholder="tool."
          autoComplete="off"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <span className="host__console-meta">{text.shown(shown.length, log.entries.length)}</span>
      </div>
      {log.dropped > 0 && (
        <p className="host__console-meta">{text.dropped(log.dropped, MESSAGE_LOG_LIMIT)}</p>
      )}
      <div
        ref={scroller}
        className="host__console-log-list"
        role="log"
        aria-labelledby="console-log-title"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          following.current =
            element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_THRESHOLD;
        }}
      >
        {shown.length === 0 ? (
          <p className="host__empty">{log.entries.length === 0 ? text.emptyLog : text.noMatch}</p>
        ) : (
          <ol>
            {shown.map((entry) => (
              <LogRow key={entry.sequence} entry={entry} text={text} />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}

/** The protocol prefix every type shares, left out of the row (the full type is in the JSON). */
const TYPE_PREFIX = 'lineup.v1.';

/** One envelope: direction, time, type and summary; the full JSON once opened. Memoized: rows never change. */
const LogRow = memo(function LogRow({
  entry,
  text,
}: {
  readonly entry: LogEntry;
  readonly text: ConsoleText;
}) {
  const [open, setOpen] = useState(false);
  const { message, direction, at } = entry;
  const type = message.type.startsWith(TYPE_PREFIX) ? message.type.slice(TYPE_PREFIX.length) : message.type;
  return (
    <li className={`host__console-entry host__console-entry--${direction}`}>
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <span className="host__console-arrow" aria-hidden="true">
            {direction === 'in' ? '←' : '→'}
          </span>
          <span className="host__visually-hidden">
            {direction === 'in' ? text.directionIn : text.directionOut}
          </span>{' '}
          <time dateTime={new Date(at).toISOString()}>{clockTime(at)}</time>{' '}
          <code className="host__console-type" title={message.type}>
            {type}
          </code>{' '}
          <span className="host__console-summary">{summarize(message)}</span>
        </summary>
        {open && (
          <section
            className="host__console-scroll"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1).
            tabIndex={0}
            aria-label={text.messageJson(message.type)}
          >
            <pre className="host__console-code">{JSON.stringify(message, null, 2)}</pre>
          </section>
        )}
      </details>
    </li>
  );
});
