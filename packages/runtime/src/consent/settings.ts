/**
 * The user's consent settings of an app (`AppRecord.consent`), changed as records: each function takes the app as
 * it is and returns its new settings with an audit detail, or throws a located error for a change that cannot be —
 * the registry writes the record, the audit entry and, when the published tools change, a new inventory revision in
 * one transaction.
 */
import { LineUpProtocolError } from '@lineup/shared';
import {
  mcpViewGrantableDevices,
  mcpViewGrantableResources,
  mcpViewGrantableSources,
  mcpViewGrantedDevices,
  mcpViewGrantedResources,
  mcpViewGrantedSources,
} from '@lineup/shared/protocol';
import type { AppConsentSettings, AppRecord, HeldToolChange, McpServerRecord } from '../storage/database.js';
import type { ToolPolicyDecision } from './policy.js';
import { claimsOf, consentToolOf, toolDefinitionHash } from './tool-consent.js';

/** A change of an app's consent settings, and what its audit entry says. */
export interface ConsentChange {
  readonly consent: AppConsentSettings;
  readonly detail: string;
}

/** The user's choice for one tool (`undefined`: back to the default), bound to the tool's definition as it is. */
export function toolPolicyChange(
  app: AppRecord,
  method: string,
  decision: ToolPolicyDecision | undefined,
  now: number,
): ConsentChange {
  const tool = app.manifest.tools.find((candidate) => candidate.method === method);
  if (tool === undefined)
    throw new LineUpProtocolError([
      { path: 'method', code: 'unknown_reference', message: 'This app has no tool of this name.' },
    ]);
  const { [method]: _previous, ...others } = app.consent?.tools ?? {};
  const tools =
    decision === undefined
      ? others
      : {
          ...others,
          [method]: { decision, definitionHash: toolDefinitionHash(app, consentToolOf(tool)), at: now },
        };
  return { consent: { ...app.consent, tools }, detail: `${method} ${decision ?? 'default'}` };
}

/** Where a MiniApp's page grant is kept in `consent.network` (a MiniApp has no views whose ids it could meet). */
export const PAGE_NETWORK_KEY = 'page';

/** The origins a MiniApp's page may connect to now: what the user granted that its manifest still declares. */
export function pageConnectSources(app: AppRecord): readonly string[] {
  if (app.kind === 'mcp_server') return [];
  return mcpViewGrantedSources(
    { connect_domains: app.manifest.connect_domains ?? [] },
    app.consent?.network?.[PAGE_NETWORK_KEY],
  );
}

/**
 * The user grants a MiniApp's page every origin its manifest declares in `connect_domains` (all or nothing), or
 * takes them back. Throws for an MCP server (its views are granted one by one) and for a grant of a page that
 * declares no origin.
 */
export function pageNetworkChange(app: AppRecord, granted: boolean): ConsentChange {
  if (app.kind === 'mcp_server')
    throw new LineUpProtocolError([
      { path: 'appId', code: 'invalid_value', message: "An MCP server's views are granted one by one." },
    ]);
  const sources = mcpViewGrantableSources({ connect_domains: app.manifest.connect_domains ?? [] });
  if (granted && sources.length === 0)
    throw new LineUpProtocolError([
      { path: 'appId', code: 'invalid_value', message: 'This app declares no origin its page connects to.' },
    ]);
  const { network: _network, ...rest } = app.consent ?? {};
  return {
    consent: { ...rest, ...(granted ? { network: { [PAGE_NETWORK_KEY]: sources } } : {}) },
    detail: granted ? `page may connect to ${sources.join(', ')}` : 'page may connect to nothing',
  };
}

/** The origins each view of `app` may connect to now: what the user granted that the view still declares. */
export function viewConnectSources(app: AppRecord): ReadonlyMap<string, readonly string[]> {
  const granted = new Map<string, readonly string[]>();
  if (app.kind !== 'mcp_server') return granted;
  for (const view of app.manifest.views) {
    const sources = mcpViewGrantedSources(view.declared, app.consent?.network?.[view.id]);
    if (sources.length > 0) granted.set(view.id, sources);
  }
  return granted;
}

/**
 * The origins each view of `app` may load images, styles, fonts and media from now: what the user granted of its
 * declared `resourceDomains` that it still declares.
 */
export function viewResourceSources(app: AppRecord): ReadonlyMap<string, readonly string[]> {
  const granted = new Map<string, readonly string[]>();
  if (app.kind !== 'mcp_server') return granted;
  for (const view of app.manifest.views) {
    const sources = mcpViewGrantedResources(view.declared, app.consent?.network?.[view.id]);
    if (sources.length > 0) granted.set(view.id, sources);
  }
  return granted;
}

/** The device features each view of `app` may use now (permissions-policy names): granted and still declared. */
export function viewDevices(app: AppRecord): ReadonlyMap<string, readonly string[]> {
  const granted = new Map<string, readonly string[]>();
  if (app.kind !== 'mcp_server') return granted;
  for (const view of app.manifest.views) {
    const devices = mcpViewGrantedDevices(view.declared, app.consent?.network?.[view.id]);
    if (devices.length > 0) granted.set(view.id, devices);
  }
  return granted;
}

/**
 * The user grants a view of an MCP server every origin of its declared `connectDomains` and `resourceDomains` that
 * can be granted, and its declared geolocation and clipboard writing (all or nothing for the view; one list, each read against its own declared list), or takes them
 * back. Throws for an app that is no MCP server, a view it does not have, or a grant of a view that declares no
 * origin that can be granted.
 */
export function viewNetworkChange(app: AppRecord, viewId: string, granted: boolean): ConsentChange {
  if (app.kind !== 'mcp_server')
    throw new LineUpProtocolError([
      { path: 'appId', code: 'invalid_value', message: 'Only an MCP server has views to grant.' },
    ]);
  const view = app.manifest.views.find((candidate) => candidate.id === viewId);
  if (view === undefined)
    throw new LineUpProtocolError([
      { path: 'viewId', code: 'unknown_reference', message: 'This server has no view of this id.' },
    ]);
  const connect = mcpViewGrantableSources(view.declared);
  const resources = mcpViewGrantableResources(view.declared);
  const devices = mcpViewGrantableDevices(view.declared);
  const sources = [...new Set([...connect, ...resources, ...devices])];
  if (granted && sources.length === 0)
    throw new LineUpProtocolError([
      { path: 'viewId', code: 'invalid_value', message: 'This view declares no origin that can be granted.' },
    ]);
  const { [viewId]: _previous, ...others } = app.consent?.network ?? {};
  const { network: _network, ...rest } = app.consent ?? {};
  const network = granted ? { ...others, [viewId]: sources } : others;
  return {
    consent: { ...rest, ...(Object.keys(network).length === 0 ? {} : { network }) },
    detail: granted
      ? [
          `view ${view.uri} may`,
          connect.length > 0 ? ` connect to ${connect.join(', ')}` : '',
          connect.length > 0 && resources.length > 0 ? ' and' : '',
          resources.length > 0 ? ` load images, styles, fonts and media from ${resources.join(', ')}` : '',
          (connect.length > 0 || resources.length > 0) && devices.length > 0 ? ' and' : '',
          devices.length > 0 ? ` use ${devices.join(', ')}` : '',
        ].join('')
      : `view ${view.uri} may connect to nothing`,
  };
}

/** Whether the user trusts an MCP server's claims. */
export function trustChange(app: AppRecord, trusted: boolean): ConsentChange {
  if (app.kind !== 'mcp_server')
    throw new LineUpProtocolError([
      { path: 'appId', code: 'invalid_value', message: 'Only an MCP server can be trusted.' },
    ]);
  return { consent: { ...app.consent, trusted }, detail: trusted ? 'trusted' : 'not trusted' };
}

/** The user accepts the held change of one tool: it is published again. */
export function acceptedChange(app: AppRecord, method: string): ConsentChange {
  const held = app.consent?.held ?? {};
  if (!Object.hasOwn(held, method))
    throw new LineUpProtocolError([
      { path: 'method', code: 'unknown_reference', message: 'This tool has no change to accept.' },
    ]);
  const { [method]: _accepted, ...others } = held;
  const { held: _held, ...rest } = app.consent ?? {};
  return {
    consent: { ...rest, ...(Object.keys(others).length === 0 ? {} : { held: others }) },
    detail: `${method} change accepted`,
  };
}

/**
 * `after` with the held changes of a refresh from `before`: a tool whose definition changed is held with the
 * definition the user had accepted (an earlier held change keeps its first one); a tool back to what was accepted,
 * or gone, is held no more; a new tool is not held (it asks like any tool of the server).
 */
export function withHeldChanges(
  before: McpServerRecord,
  after: McpServerRecord,
  now: number,
): McpServerRecord {
  const held: Record<string, HeldToolChange> = {};
  const earlier = before.consent?.held ?? {};
  for (const tool of after.manifest.tools) {
    const kept = Object.hasOwn(earlier, tool.method) ? earlier[tool.method] : undefined;
    const old = before.manifest.tools.find((candidate) => candidate.method === tool.method);
    const accepted: HeldToolChange | undefined =
      kept ??
      (old === undefined
        ? undefined
        : {
            previous: old,
            previousClaims: claimsOf(before, old.executor.tool) ?? { readOnly: false, destructive: false },
            at: now,
          });
    if (accepted === undefined) continue;
    // The accepted definition as the server's record then described it (its claims included).
    const serverTool = accepted.previous.executor.tool as string;
    const then: McpServerRecord = {
      ...before,
      manifest: {
        ...before.manifest,
        read_only: accepted.previousClaims.readOnly ? [serverTool] : [],
        destructive: accepted.previousClaims.destructive ? [serverTool] : [],
      },
    };
    if (
      toolDefinitionHash(then, consentToolOf(accepted.previous)) !==
      toolDefinitionHash(after, consentToolOf(tool))
    )
      held[tool.method] = accepted;
  }
  const { held: _held, ...rest } = after.consent ?? {};
  const consent = { ...rest, ...(Object.keys(held).length === 0 ? {} : { held }) };
  const { consent: _consent, ...record } = after;
  return Object.keys(consent).length === 0 ? record : { ...record, consent };
}
