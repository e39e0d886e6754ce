/**
 * The console's tool caller: any Agent Tool of the current inventory, with a form generated from its input schema
 * (schema-form.ts) or its arguments as JSON, checked before a `lineup.v1.tool.call` is built and sent from the
 * agent's end (tool-call.ts). With a remote agent, or none, it says why it is off.
 */
import {
  AGENT_TOOL_LIMITS,
  type AgentToolInventoryEntry,
  type ClientInventoryPayload,
} from '@lineup/shared/protocol';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { shownAgentUrl } from '../agent/agent-link.ts';
import { AGENT_LINK_TEXTS } from '../agent/agent-link-texts.ts';
import type { AgentConnection } from '../agent/connection.ts';
import type { ConsoleText } from '../i18n/console.ts';
import { useLanguage, useText } from '../i18n/LanguageProvider.tsx';
import { FieldInput } from './FieldInput.tsx';
import {
  type ArgumentIssue,
  argumentsFromForm,
  argumentsFromJSONText,
  buildFormModel,
  type FormModel,
  type FormValues,
  formValuesAsJSONText,
  initialFormValues,
} from './schema-form.ts';
import {
  buildToolCallEnvelope,
  consoleUuid,
  envelopeProblem,
  type WatchedCall,
  watchCall,
} from './tool-call.ts';

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

export function ToolCaller({
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
