/**
 * The user's and the host's consent settings for Agent Tools, as the registry keeps them (seed 003 §4.1: the
 * inventory is what the user's and the organisation's policy allow): the host's rules, each app's settings (a
 * tool's choice, trust in an MCP server, a held tool change accepted) and the grants the user remembered. A change
 * that alters which tools are published is a new inventory revision; every change is audited.
 */
import { canonicalJSONString, LineUpProtocolError } from '@lineup/shared';
import { type ToolPolicyDecision, type ToolPolicyRule, toolPolicyRuleProblem } from '../consent/policy.js';
import {
  acceptedChange,
  pageNetworkChange,
  toolPolicyChange,
  trustChange,
  viewNetworkChange,
} from '../consent/settings.js';
import {
  type AppConsentSettings,
  type AppRecord,
  type AuditRecord,
  REGISTRY_STORES,
  stampRegistry,
  type ToolGrantRecord,
} from '../storage/database.js';
import { buildInventory } from './inventory.js';
import { notInstalled } from './registry-errors.js';
import { commit, publish, type RegistryContext } from './registry-persistence.js';

/** The host's consent rules, checked (an invalid one throws, at its index) and frozen. */
export function checkedToolPolicy(rules: readonly ToolPolicyRule[]): readonly ToolPolicyRule[] {
  rules.forEach((rule, index) => {
    const problem = toolPolicyRuleProblem(rule);
    if (problem !== undefined)
      throw new LineUpProtocolError([
        { path: `toolPolicy[${index}]`, code: 'invalid_value', message: problem },
      ]);
  });
  return Object.freeze(rules.map((rule) => Object.freeze({ ...rule })));
}

/** See `AppRegistry.applyToolPolicy`: publishes again when the host's rules publish other tools. */
export async function applyToolPolicy(context: RegistryContext): Promise<boolean> {
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const [apps, current, declared] = await Promise.all([
    transaction.objectStore('apps').getAll(),
    transaction.objectStore('inventory').get('current'),
    transaction.objectStore('capabilities').getAll(),
  ]);
  const tools = buildInventory(0, apps, declared, context.rules).tools ?? [];
  if (
    current === undefined ||
    canonicalJSONString(current.inventory.tools ?? []) === canonicalJSONString(tools)
  ) {
    await transaction.done;
    return false;
  }
  await commit(transaction, () =>
    publish(
      context,
      transaction,
      apps,
      {
        at: context.clock.now(),
        type: 'consent_settings',
        appId: 'host',
        version: '',
        detail: 'host policy',
      },
      declared,
    ),
  );
  return true;
}

/** See `AppRegistry.setToolPolicy`: the user's choice for one tool, bound to its current definition. */
export async function setToolPolicy(
  context: RegistryContext,
  appId: string,
  method: string,
  decision: ToolPolicyDecision | undefined,
): Promise<void> {
  await changeConsent(context, appId, (app) => toolPolicyChange(app, method, decision, context.clock.now()));
}

/** See `AppRegistry.setTrusted`. */
export async function setTrusted(context: RegistryContext, appId: string, trusted: boolean): Promise<void> {
  await changeConsent(context, appId, (app) => trustChange(app, trusted));
}

/** See `AppRegistry.setViewNetwork`. */
export async function setViewNetwork(
  context: RegistryContext,
  appId: string,
  viewId: string,
  granted: boolean,
): Promise<void> {
  await changeConsent(context, appId, (app) => viewNetworkChange(app, viewId, granted));
}

/** See `AppRegistry.setPageNetwork`. */
export async function setPageNetwork(
  context: RegistryContext,
  appId: string,
  granted: boolean,
): Promise<void> {
  await changeConsent(context, appId, (app) => pageNetworkChange(app, granted));
}

/** See `AppRegistry.acceptToolChange`. */
export async function acceptToolChange(
  context: RegistryContext,
  appId: string,
  method: string,
): Promise<void> {
  await changeConsent(context, appId, (app) => acceptedChange(app, method));
}

/** One change of an app's consent settings: the record, its audit entry, and a new revision if the tools change. */
async function changeConsent(
  context: RegistryContext,
  appId: string,
  change: (app: AppRecord) => { readonly consent: AppConsentSettings; readonly detail: string },
): Promise<void> {
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const apps = transaction.objectStore('apps');
  const all = await apps.getAll();
  const existing = all.find((app) => app.id === appId);
  let changed: ReturnType<typeof change>;
  try {
    if (existing === undefined) throw notInstalled();
    changed = change(existing);
  } catch (error) {
    transaction.abort();
    await transaction.done.catch(() => {});
    throw error;
  }
  const record = { ...existing, consent: changed.consent } as AppRecord;
  const next = all.map((app) => (app.id === appId ? record : app));
  const audit: Omit<AuditRecord, 'id'> = {
    at: context.clock.now(),
    type: 'consent_settings',
    appId,
    version: existing.manifest.version,
    detail: changed.detail,
  };
  const [current, declared] = await Promise.all([
    transaction.objectStore('inventory').get('current'),
    transaction.objectStore('capabilities').getAll(),
  ]);
  const before = current?.inventory.tools ?? [];
  const after = buildInventory(0, next, declared, context.rules).tools ?? [];
  await commit(transaction, async () => {
    await apps.put(record);
    stampRegistry(transaction);
    if (canonicalJSONString(before) !== canonicalJSONString(after))
      await publish(context, transaction, next, audit, declared);
    else await transaction.objectStore('audit').add(audit);
  });
}

/** See `AppRegistry.toolGrants`. */
export async function toolGrants(
  context: RegistryContext,
  conversationId?: string,
): Promise<ToolGrantRecord[]> {
  const grants =
    conversationId === undefined
      ? await context.db.getAll('tool_grants')
      : await context.db.getAllFromIndex('tool_grants', 'by_conversation', conversationId);
  return grants.sort((a, b) => b.grantedAt - a.grantedAt);
}

/** See `AppRegistry.revokeToolGrant`. */
export async function revokeToolGrant(
  context: RegistryContext,
  conversationId: string,
  tool: string,
): Promise<boolean> {
  const transaction = context.db.transaction(['tool_grants', 'audit'], 'readwrite');
  const key = `${conversationId}\n${tool}`;
  const grant = await transaction.objectStore('tool_grants').get(key);
  if (grant === undefined) {
    await transaction.done;
    return false;
  }
  await transaction.objectStore('tool_grants').delete(key);
  await transaction.objectStore('audit').add({
    at: context.clock.now(),
    type: 'consent_settings',
    appId: grant.appId,
    version: '',
    conversationId,
    detail: `${tool} grant revoked`,
  });
  await transaction.done;
  return true;
}
