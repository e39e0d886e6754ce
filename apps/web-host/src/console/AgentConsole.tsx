/**
 * The agent console: a protocol inspector in the host, in the spirit of MCP's Inspector. It speaks as the agent
 * (`connection.agent`, the in-process agent end, so a call takes exactly the path of an agent's message) and
 * shows what the client answers:
 *
 * - the tool caller: any Agent Tool of the current inventory, a form generated from its input schema
 *   (schema-form.ts), checked before a `lineup.v1.tool.call` is built and sent (tool-call.ts);
 * - each call's progress receipts and final result, live;
 * - the message log of every envelope in and out (message-log.ts).
 *
 * View code only: the pure rules live beside it. With a remote agent connected the console cannot speak for it,
 * so the caller is off and only the log runs; so it is with no agent at all (an agent link not answered yet, or
 * declined). The panel also lists the agents allowed from page links in this browser, each with "Forget".
 */
import {
  AGENT_TOOL_LIMITS,
  type AgentToolInventoryEntry,
  type ClientInventoryPayload,
} from '@lineup/shared/protocol';
import {
  type FormEvent,
  memo,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { shownAgentUrl } from '../agent/agent-link.ts';
import { AGENT_LINK_TEXTS } from '../agent/agent-link-texts.ts';
import type { AgentConnection, LoggedMessage } from '../agent/connection.ts';
import { RememberedAgentsList } from '../agent/RememberedAgentsList.tsx';
import { type HostText, useLanguage, useText } from '../i18n.tsx';
import { useAgentLink, useRuntime } from '../runtime.tsx';
import { FrameBatch } from '../scheduling/per-frame.ts';
import {
  appendAllToLog,
  clockTime,
  EMPTY_MESSAGE_LOG,
  filterLog,
  type LogEntry,
  MESSAGE_LOG_LIMIT,
  type MessageLog,
  summarize,
} from './message-log.ts';
import {
  type ArgumentIssue,
  argumentsFromForm,
  argumentsFromJSONText,
  buildFormModel,
  type FieldModel,
  type FormModel,
  type FormValues,
  formValuesAsJSONText,
  initialFormValues,
} from './schema-form.ts';
import {
  addWatchedCall,
  buildToolCallEnvelope,
  callPhase,
  consoleUuid,
  envelopeProblem,
  observe,
  type WatchedCall,
  watchCall,
} from './tool-call.ts';

type ConsoleText = HostText['agentConsole'];

/** The agent console panel: collapsed until opened, listening from the moment the runtime is ready. */
export function AgentConsole() {
  const runtime = useRuntime();
  const agentLink = useAgentLink();
  const text = useText().agentConsole;
  const [open, setOpen] = useState(false);
  return (
    <section className="host__console" aria-labelledby="console-title">
      <div className="host__console-head">
        <h2 id="console-title">{text.title}</h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="console-body"
          onClick={() => setOpen((current) => !current)}
        >
          {open ? text.hide : text.show}
        </button>
      </div>
      {/* Hidden, not unmounted: the log keeps listening while the panel is closed. */}
      <div id="console-body" className="host__console-body" hidden={!open}>
        <p className="host__console-intro">{text.intro}</p>
        {runtime.status === 'loading' && <p className="host__empty">{text.starting}</p>}
        {runtime.status === 'error' && <p className="host__empty">{text.unavailable}</p>}
        {runtime.status === 'ready' && (
          <ConsoleView connection={runtime.connection} initialInventory={runtime.inventory} open={open} />
        )}
        {agentLink !== null && <RememberedAgentsList gate={agentLink} />}
      </div>
    </section>
  );
}

export interface ConsoleViewProps {
  readonly connection: AgentConnection;
  /** The inventory when the runtime became ready; every inventory the client sends afterwards replaces it. */
  readonly initialInventory: ClientInventoryPayload;
  /** Whether the panel is open (the log follows new messages only then); open unless told. */
  readonly open?: boolean;
}

/** The console over a ready runtime. Exported for tests, which render it with a stand-in connection. */
export function ConsoleView({ connection, initialInventory, open = true }: ConsoleViewProps) {
  const text = useText().agentConsole;
  const [log, setLog] = useState<MessageLog>(EMPTY_MESSAGE_LOG);
  const [calls, setCalls] = useState<readonly WatchedCall[]>([]);
  const [inventory, setInventory] = useState(initialInventory);
  const status = useSyncExternalStore(
    (listener) => connection.onStatus(listener),
    () => connection.status,
    () => connection.status,
  );

  useEffect(() => {
    // A burst of envelopes reaches the log and the calls once per frame, not once per envelope.
    const batch = new FrameBatch<LoggedMessage>((entries) => {
      setLog((current) => appendAllToLog(current, entries));
      setCalls((current) => entries.reduce(observe, current));
    });
    const stop = connection.onMessage((entry: LoggedMessage) => {
      batch.add(entry);
      const { message } = entry;
      // What the agent sees is what the client sent: the tools and revision of the latest inventory.
      if (
        entry.direction === 'out' &&
        message.type === 'lineup.v1.client.inventory' &&
        message.conversation_id === connection.conversationId
      )
        setInventory(message.payload);
    });
    return () => {
      stop();
      batch.cancel();
    };
  }, [connection]);

  return (
    <div className="host__console-sections">
      <ToolCaller
        connection={connection}
        inventory={inventory}
        connected={status === 'open'}
        onSent={(call) => setCalls((current) => addWatchedCall(current, call))}
        text={text}
      />
      <CallList calls={calls} text={text} />
      <MessageLogView log={log} text={text} open={open} />
    </div>
  );
}

// ── Tool caller ─────────────────────────────────────────────────────────────────────────────────────────

/** What the user typed for one tool; it starts over when another tool is picked. */
interface Draft {
  readonly tool: string;
  readonly values: FormValues;
  /** The whole-object JSON text, or null while the form is used. */
  readonly json: string | null;
  readonly wait: string;
}

function newDraft(tool: AgentToolInventoryEntry, model: FormModel): Draft {
  return {
    tool: tool.name,
    values: initialFormValues(model),
    json: model.wholeJSON === null ? null : '{}',
    wait: String(tool.timeout_ms),
  };
}

/** The console's wait: a whole number of milliseconds, without sign or spaces. */
const WAIT_TEXT = /^[1-9]\d*$/;

interface Refusal {
  readonly issues: readonly ArgumentIssue[];
  /** The wait is not a whole number of milliseconds in range. */
  readonly wait: boolean;
  /** Where the built envelope broke the protocol. */
  readonly envelopeAt?: string;
}

function ToolCaller({
  connection,
  inventory,
  connected,
  onSent,
  text,
}: {
  readonly connection: AgentConnection;
  readonly inventory: ClientInventoryPayload;
  readonly connected: boolean;
  readonly onSent: (call: WatchedCall) => void;
  readonly text: ConsoleText;
}) {
  const ids = useId();
  const apps = useText().apps;
  const tools = inventory.tools ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  // A tool the latest inventory no longer publishes falls back to the first one.
  const tool = tools.find((entry) => entry.name === chosen) ?? tools[0];
  const model = useMemo(() => (tool === undefined ? null : buildFormModel(tool.input_schema)), [tool]);
  const [draftState, setDraft] = useState<Draft | null>(null);
  const draft =
    tool === undefined || model === null
      ? null
      : draftState?.tool === tool.name
        ? draftState
        : newDraft(tool, model);
  /** Why the last call was not sent: the arguments' issues and any other reason, in words at render. */
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const remote = connection.agent === null;
  /** No agent to speak for or to: a link's agent not answered for yet, or declined. */
  const noAgent = remote && (connection.remoteUrl === null || connection.held);
  const noAgentText = AGENT_LINK_TEXTS[useLanguage().language].consoleNoAgent;

  const update = (change: Partial<Draft>) => {
    if (draft !== null) setDraft({ ...draft, ...change });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const agent = connection.agent;
    if (agent === null || tool === undefined || model === null || draft === null) return;
    const outcome =
      draft.json === null ? argumentsFromForm(model, draft.values) : argumentsFromJSONText(model, draft.json);
    const wait = draft.wait.trim();
    const waitMs = Number(wait);
    const waitValid = WAIT_TEXT.test(wait) && waitMs <= AGENT_TOOL_LIMITS.maxTimeoutMs;
    if (!outcome.ok || !waitValid) {
      setRefusal({ issues: outcome.ok ? [] : outcome.issues, wait: !waitValid });
      return;
    }
    const envelope = buildToolCallEnvelope({
      conversationId: connection.conversationId,
      tool: tool.name,
      inventoryRevision: inventory.revision,
      arguments: outcome.arguments,
      uuid: consoleUuid(),
    });
    const problem = envelopeProblem(envelope);
    if (problem !== null) {
      setRefusal({ issues: [], wait: false, envelopeAt: problem });
      return;
    }
    setRefusal(null);
    agent.send(envelope);
    onSent(watchCall(envelope, Date.now(), waitMs));
  };

  const invalidFields = new Set(refusal?.issues.map((issue) => issue.field));
  const refusalTexts =
    refusal === null || model === null
      ? []
      : [
          ...refusal.issues.map((issue) => issueText(text, model, issue)),
          ...(refusal.wait ? [text.waitInvalid(AGENT_TOOL_LIMITS.maxTimeoutMs)] : []),
          ...(refusal.envelopeAt === undefined ? [] : [text.invalidEnvelope(refusal.envelopeAt)]),
        ];

  return (
    <form className="host__console-caller" onSubmit={submit} noValidate>
      <h3>{text.caller}</h3>
      {remote && (
        <p className="host__console-note" role="note">
          {noAgent ? noAgentText : text.remote(shownAgentUrl(connection.remoteUrl ?? ''))}
        </p>
      )}
      {!remote && !connected && <p className="host__console-note">{text.notOpen}</p>}
      {tools.length === 0 && <p className="host__empty">{text.noTools}</p>}
      {tool !== undefined && model !== null && draft !== null && (
        <fieldset className="host__console-fieldset" disabled={remote}>
          <div className="host__console-field">
            <label htmlFor={`${ids}-tool`}>{text.tool}</label>
            <select
              id={`${ids}-tool`}
              value={tool.name}
              aria-describedby={`${ids}-tool-about`}
              onChange={(event) => {
                setChosen(event.target.value);
                setRefusal(null);
              }}
            >
              {tools.map((entry) => (
                <option key={entry.name} value={entry.name}>
                  {entry.name}
                </option>
              ))}
            </select>
            <div id={`${ids}-tool-about`} className="host__console-hint">
              <p className="host__console-description">{tool.description}</p>
              <p className="host__console-meta">
                {apps.callModels[tool.call_model]} · {apps.activations[tool.activation]} ·{' '}
                {text.toolTimeout(tool.timeout_ms)} · {text.revision} <code>{inventory.revision}</code>
              </p>
            </div>
          </div>

          {model.wholeJSON === null && (
            <label className="host__console-check">
              <input
                type="checkbox"
                checked={draft.json !== null}
                onChange={(event) =>
                  update({ json: event.target.checked ? formValuesAsJSONText(model, draft.values) : null })
                }
              />{' '}
              {text.editAsJSON}
            </label>
          )}

          {draft.json === null ? (
            model.fields.length === 0 ? (
              <p className="host__empty">{text.noArguments}</p>
            ) : (
              model.fields.map((field, index) => (
                <FieldInput
                  key={field.name}
                  // By position: a property name may hold spaces, which an id reference cannot.
                  id={`${ids}-field-${index}`}
                  field={field}
                  value={draft.values[field.name] ?? ''}
                  invalid={invalidFields.has(field.name)}
                  onChange={(value) => update({ values: { ...draft.values, [field.name]: value } })}
                  text={text}
                />
              ))
            )
          ) : (
            <div className="host__console-field">
              <label htmlFor={`${ids}-json`}>{text.argumentsJSON}</label>
              {model.wholeJSON !== null && (
                <p id={`${ids}-json-why`} className="host__console-hint">
                  {text.fallback[model.wholeJSON]}
                </p>
              )}
              <textarea
                id={`${ids}-json`}
                className="host__console-code"
                rows={5}
                spellCheck={false}
                value={draft.json}
                aria-invalid={(refusal?.issues.length ?? 0) > 0}
                {...(model.wholeJSON === null ? {} : { 'aria-describedby': `${ids}-json-why` })}
                onChange={(event) => update({ json: event.target.value })}
              />
            </div>
          )}

          <div className="host__console-field">
            <label htmlFor={`${ids}-wait`}>{text.wait}</label>
            <input
              id={`${ids}-wait`}
              inputMode="numeric"
              autoComplete="off"
              value={draft.wait}
              aria-invalid={refusal?.wait === true}
              aria-describedby={`${ids}-wait-hint`}
              onChange={(event) => update({ wait: event.target.value })}
            />
            <p id={`${ids}-wait-hint`} className="host__console-hint">
              {text.waitHint(tool.timeout_ms)}
            </p>
          </div>

          {refusalTexts.length > 0 && (
            <div className="host__console-issues" role="alert">
              <strong>{text.notSent}</strong>
              <ul>
                {refusalTexts.map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
              </ul>
            </div>
          )}

          <div className="host__console-actions">
            <button type="submit" disabled={remote || !connected}>
              {text.call}
            </button>
          </div>
        </fieldset>
      )}
    </form>
  );
}

/** One refusal in words: the field's label (or "the arguments") and what it must be. */
function issueText(text: ConsoleText, model: FormModel, issue: ArgumentIssue): string {
  const field = model.fields.find((candidate) => candidate.name === issue.field);
  const name = issue.field === null ? text.wholeArguments : text.quoted(field?.title ?? issue.field);
  return text.issues[issue.code](name, String(issue.limit ?? ''));
}

/** The constraints of a field, in words: what the hint under it says. */
function constraintsOf(field: FieldModel, text: ConsoleText): string[] {
  const parts: string[] = [text.kinds[field.kind]];
  if (field.kind === 'string') {
    if (field.minLength !== undefined || field.maxLength !== undefined)
      parts.push(text.length(field.minLength, field.maxLength));
    if (field.pattern !== undefined) parts.push(text.pattern(field.pattern));
  } else if (field.kind === 'integer' || field.kind === 'number') {
    if (field.minimum !== undefined && field.maximum !== undefined)
      parts.push(`${field.minimum}–${field.maximum}`);
    else if (field.minimum !== undefined) parts.push(`≥ ${field.minimum}`);
    else if (field.maximum !== undefined) parts.push(`≤ ${field.maximum}`);
    if (field.exclusiveMinimum !== undefined) parts.push(`> ${field.exclusiveMinimum}`);
    if (field.exclusiveMaximum !== undefined) parts.push(`< ${field.exclusiveMaximum}`);
    if (field.multipleOf !== undefined) parts.push(text.multipleOf(field.multipleOf));
  } else if (field.kind === 'json') {
    parts.push(text.fallback[field.reason]);
  }
  return parts;
}

function FieldInput({
  id,
  field,
  value,
  invalid,
  onChange,
  text,
}: {
  readonly id: string;
  readonly field: FieldModel;
  readonly value: string;
  readonly invalid: boolean;
  readonly onChange: (value: string) => void;
  readonly text: ConsoleText;
}) {
  const hintId = `${id}-hint`;
  const common = { id, 'aria-describedby': hintId, 'aria-invalid': invalid, 'aria-required': field.required };
  const options =
    field.kind === 'boolean'
      ? ['true', 'false']
      : field.kind === 'string' || field.kind === 'integer' || field.kind === 'number'
        ? field.options?.map(String)
        : undefined;
  return (
    <div className="host__console-field">
      <label htmlFor={id}>
        {field.title ?? field.name}
        {field.title !== undefined && (
          <>
            {' '}
            <code>{field.name}</code>
          </>
        )}
        {field.required && <span className="host__console-required"> ({text.required})</span>}
      </label>
      {options !== undefined ? (
        <select {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{field.required ? text.choose : text.notSet}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : field.kind === 'json' ? (
        <textarea
          {...common}
          className="host__console-code"
          rows={3}
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...common}
          autoComplete="off"
          inputMode={field.kind === 'integer' ? 'numeric' : field.kind === 'number' ? 'decimal' : 'text'}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <p id={hintId} className="host__console-hint">
        {field.description !== undefined && <span>{field.description} </span>}
        <span className="host__console-constraints">{constraintsOf(field, text).join(' · ')}</span>
      </p>
    </div>
  );
}

// ── Calls ───────────────────────────────────────────────────────────────────────────────────────────────

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

function CallList({ calls, text }: { readonly calls: readonly WatchedCall[]; readonly text: ConsoleText }) {
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

// ── Message log ─────────────────────────────────────────────────────────────────────────────────────────

/** How close to the end (in pixels) the reader must be for the log to follow new messages. */
const FOLLOW_THRESHOLD = 24;

function MessageLogView({
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
