/**
 * An app's consent settings in the app center: per tool, the user's choice (default, always allow, ask every time,
 * never allow) with what applies now and who set it — the host's policy is a floor a choice cannot lower; for an MCP
 * server, whether the user trusts its claims that a tool changes nothing; and the allowances the user remembered,
 * per conversation, each revocable. Every change is audited by the registry and takes effect at the next call; a
 * tool now denied leaves the inventory (a new revision).
 */
import {
  type AppRecord,
  claimsOf,
  consentToolOf,
  effectivePolicy,
  TOOL_POLICY_DECISIONS,
  type ToolGrantRecord,
  type ToolPolicyDecision,
} from '@lineup/runtime';
import { findHiddenCharacters, revealHiddenCharacters } from '@lineup/shared';
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import { useToolConsentText } from '../capabilities/tool-consent-texts.ts';
import { useText } from '../i18n/LanguageProvider.tsx';
import type { AppCenter as AppCenterModel } from './app-center.ts';

/** What a tool's consent settings are drawn from: the app center, the app's record, the tool. */
interface ToolSettingProps {
  readonly center: AppCenterModel;
  readonly record: AppRecord;
  readonly tool: AgentToolDescriptor;
}

/** The user's choice for one tool, and what applies now. */
export function ToolPolicyControl({ center, record, tool }: ToolSettingProps) {
  const text = useToolConsentText().settings;
  const name = `${tool.app_scope}.${tool.method}`;
  const chosen = record.consent?.tools?.[tool.method]?.decision;
  const policy = effectivePolicy(record, consentToolOf(tool), center.toolPolicy);
  const id = `policy-${record.id}-${tool.method}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <div className="host__tool-policy">
      <label htmlFor={id}>{text.policyLabel(name)}</label>{' '}
      <select
        id={id}
        value={chosen ?? 'default'}
        onChange={(event) => {
          const value = event.target.value;
          void center.setToolPolicy(
            record.id,
            tool.method,
            value === 'default' ? undefined : (value as ToolPolicyDecision),
          );
        }}
      >
        <option value="default">{text.decisions.default}</option>
        {TOOL_POLICY_DECISIONS.map((decision) => (
          <option key={decision} value={decision}>
            {text.decisions[decision]}
          </option>
        ))}
      </select>
      <p className="host__tool-meta" aria-live="polite">
        {text.effective(text.now[policy.decision], text.source[policy.source])}
      </p>
    </div>
  );
}

/** A tool's description with its hidden characters made visible, and a flag when it has any. */
export function ToolDescription({ description }: { readonly description: string }) {
  const text = useToolConsentText().settings;
  const hidden = findHiddenCharacters(description).length;
  return (
    <>
      {hidden > 0 && <span className="host__consent-hidden">{text.hiddenFlag(hidden)}</span>}
      <p>{revealHiddenCharacters(description)}</p>
    </>
  );
}

/** Whether the user trusts an MCP server's read-only claims. */
export function ServerTrust({
  center,
  record,
}: {
  readonly center: AppCenterModel;
  readonly record: Extract<AppRecord, { kind: 'mcp_server' }>;
}) {
  const text = useToolConsentText().settings;
  return (
    <div className="host__server-trust">
      <label>
        <input
          type="checkbox"
          checked={record.consent?.trusted === true}
          onChange={(event) => void center.setTrusted(record.id, event.target.checked)}
        />{' '}
        {text.trust}
      </label>
      <p className="host__tool-meta">{text.trustHint}</p>
    </div>
  );
}

/** The allowances remembered for an app's tools, each with its conversation and a Revoke button. */
export function GrantList({
  center,
  name,
  grants,
}: {
  readonly center: AppCenterModel;
  readonly name: string;
  readonly grants: readonly ToolGrantRecord[];
}) {
  const text = useToolConsentText().settings;
  const locale = useText().locale;
  return (
    <>
      <h3 className="host__app-section">{text.grantsTitle}</h3>
      {grants.length === 0 ? (
        <p className="host__app-none">{text.noGrants}</p>
      ) : (
        <ul className="host__tools" aria-label={text.grantsList(name)}>
          {grants.map((grant) => (
            <li key={grant.key}>
              {text.grant(grant.tool, grant.conversationId)}{' '}
              <time className="host__tool-meta" dateTime={new Date(grant.grantedAt).toISOString()}>
                {new Date(grant.grantedAt).toLocaleString(locale)}
              </time>{' '}
              <button
                type="button"
                aria-label={text.revokeNamed(grant.tool, grant.conversationId)}
                onClick={() => void center.revokeGrant(grant.conversationId, grant.tool)}
              >
                {text.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * A tool a refresh changed since the user accepted it (`AppConsentSettings.held`): what changed, field by field —
 * before and now, hidden characters made visible — and the button that accepts it (then it is offered again).
 */
export function HeldChange({ center, record, tool }: ToolSettingProps) {
  const text = useToolConsentText().settings;
  const held = record.consent?.held?.[tool.method];
  if (held === undefined) return null;
  const name = `${tool.app_scope}.${tool.method}`;
  const claims = claimsOf(record, tool.executor.tool) ?? { readOnly: false, destructive: false };
  const fields: readonly [string, unknown, unknown][] = [
    ['description', held.previous.description, tool.description],
    ['input_schema', held.previous.input_schema, tool.input_schema],
    ['output_schema', held.previous.output_schema, tool.output_schema],
    ['risk', held.previous.risk, tool.risk],
    ['call_model', held.previous.call_model, tool.call_model],
    ['claims', held.previousClaims, claims],
  ];
  const shown = (value: unknown) =>
    revealHiddenCharacters(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return (
    <fieldset className="host__tool-held">
      <legend>{text.heldGroup(name)}</legend>
      <p className="host__consent-hidden">{text.held}</p>
      <dl>
        {fields
          .filter(([, before, now]) => JSON.stringify(before) !== JSON.stringify(now))
          .map(([field, before, now]) => (
            <div key={field}>
              <dt>{text.fields[field] ?? field}</dt>
              <dd>
                <span className="host__tool-meta">{text.beforeLabel}</span>
                <pre className="host__consent-arguments">{shown(before)}</pre>
                <span className="host__tool-meta">{text.afterLabel}</span>
                <pre className="host__consent-arguments">{shown(now)}</pre>
              </dd>
            </div>
          ))}
      </dl>
      <button
        type="button"
        aria-label={text.acceptNamed(name)}
        onClick={() => void center.acceptToolChange(record.id, tool.method)}
      >
        {text.accept}
      </button>
    </fieldset>
  );
}
