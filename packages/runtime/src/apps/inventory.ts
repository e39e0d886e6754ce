/**
 * The inventory the registry publishes (seed 000 §5.1, seed 003 §4.1): the enabled apps, with their declared
 * Surfaces and their Agent Tools as inventory entries (the contract, not the executor), and the capabilities the
 * host declared and has not revoked. A tool whose effective consent policy is `deny` is not published at all, nor
 * an MCP server's tool whose change the user has not accepted. Its revision is `inventory-<n>`.
 */
import { LineUpProtocolError } from '@lineup/shared';
import {
  type ClientInventoryPayload,
  ClientInventoryPayloadSchema,
  type StandardComponent,
  toAgentToolInventoryEntry,
} from '@lineup/shared/protocol';
import type { ToolPolicyRule } from '../consent/policy.js';
import { consentToolOf, effectivePolicy } from '../consent/tool-consent.js';
import type { AppRecord, CapabilityRecord } from '../storage/database.js';

/** The standard components this host renders itself: the Intelligent UI DSL, versions 1.0 and 1.1. */
export const HOST_STANDARD_COMPONENTS: readonly StandardComponent[] = Object.freeze([
  Object.freeze({ id: 'intelligent_ui', version: '1.1' }),
]);

/** Sorts by `name`. */
export const byName = <T extends { readonly name: string }>(a: T, b: T) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * Builds the inventory of the enabled apps, without the tools their consent policy denies under the host's `rules`
 * and without an MCP server's tools changed since the user accepted them (`AppConsentSettings.held`); validated with
 * the wire schema before anything stores it.
 */
export function buildInventory(
  counter: number,
  apps: readonly AppRecord[],
  capabilities: readonly CapabilityRecord[] = [],
  rules: readonly ToolPolicyRule[] = [],
): ClientInventoryPayload {
  const enabled = apps.filter((app) => app.enabled).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const tools = enabled.flatMap((app) =>
    app.manifest.tools
      .filter(
        (tool) =>
          app.consent?.held?.[tool.method] === undefined &&
          effectivePolicy(app, consentToolOf(tool), rules).decision !== 'deny',
      )
      .map(toAgentToolInventoryEntry),
  );
  const inventory = {
    revision: `inventory-${counter}`,
    standard_components: [...HOST_STANDARD_COMPONENTS],
    applications: enabled.map((app) => ({
      id: app.id,
      version: app.manifest.version,
      // An MCP server's views open beside its tools' calls, never by an agent's reference.
      surfaces:
        app.kind === 'mcp_server'
          ? []
          : app.manifest.surfaces.map((surface) => ({ id: surface.id, events: [...surface.events] })),
    })),
    capabilities: capabilities
      .filter((capability) => !capability.revoked)
      .sort(byName)
      .map(({ name, version, risk }) => ({ name, version, risk })),
    ...(tools.length > 0 ? { tools } : {}),
  };
  const checked = ClientInventoryPayloadSchema.safeParse(inventory);
  if (!checked.success)
    throw new LineUpProtocolError([
      {
        path: 'inventory',
        code: 'invalid_value',
        message: 'The enabled apps do not form a valid inventory.',
      },
    ]);
  return inventory;
}
