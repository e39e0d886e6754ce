/**
 * One tool as the consent step sees it — an agent's tool, or a tool an MCP server shows its views only — and what
 * the step reads of it: what an MCP server's annotations claim, the facts the policy reads, the digest a grant and
 * a user's "allow" are bound to, the user's choice while it still counts, and the effective policy.
 */
import { hashCanonicalJSON } from '@lineup/shared';
import type { AgentToolDescriptor, LineUpRiskLevel } from '@lineup/shared/protocol';
import type { AppRecord } from '../storage/database.js';
import {
  type ToolConsentFacts,
  type ToolConsentPolicy,
  type ToolPolicyDecision,
  type ToolPolicyRule,
  toolConsentPolicy,
} from './policy.js';

/** One tool of an app as the consent step sees it: the agent's tools, and the tools an MCP server shows views only. */
export interface ConsentTool {
  readonly name: string;
  readonly description: string;
  readonly risk: LineUpRiskLevel;
  /** The definition the hash covers (the descriptor, or an app tool's name and input schema). */
  readonly definition: unknown;
  /** The server's own name of the tool, for an MCP server. */
  readonly serverTool?: string;
}

/** The tool of an agent-visible descriptor. */
export function consentToolOf(descriptor: AgentToolDescriptor): ConsentTool {
  return {
    name: `${descriptor.app_scope}.${descriptor.method}`,
    description: descriptor.description,
    risk: descriptor.risk,
    definition: descriptor,
    ...(descriptor.executor.tool === undefined ? {} : { serverTool: descriptor.executor.tool }),
  };
}

/** What an MCP server's annotations claimed about one of its tools (by its own name). */
export function claimsOf(
  app: AppRecord,
  serverTool: string | undefined,
): { readonly readOnly: boolean; readonly destructive: boolean } | undefined {
  if (app.kind !== 'mcp_server' || serverTool === undefined) return undefined;
  const { manifest } = app;
  const destructive = manifest.destructive?.includes(serverTool) === true;
  // Manifests kept before the claims were: an agent tool's read-only claim is in its risk.
  const readOnly =
    manifest.read_only !== undefined
      ? manifest.read_only.includes(serverTool)
      : manifest.tools.some((tool) => tool.executor.tool === serverTool && tool.risk === 'display_only');
  return { readOnly, destructive };
}

/** The facts the policy reads about `tool` of `app`. */
export function consentFacts(app: AppRecord, tool: ConsentTool): ToolConsentFacts {
  const claims = claimsOf(app, tool.serverTool);
  return {
    name: tool.name,
    risk: tool.risk,
    kind: app.kind === 'mcp_server' ? 'mcp_server' : 'miniapp',
    ...(app.kind === 'mcp_server' ? { trusted: app.consent?.trusted === true } : {}),
    ...(claims === undefined ? {} : claims),
  };
}

/**
 * The digest a grant and a user's "allow" are bound to: the app, the server's URL, the tool's whole definition
 * (description, schemas, risk, executor) and what the server claims of it. Any change asks again.
 */
export function toolDefinitionHash(app: AppRecord, tool: ConsentTool): string {
  return hashCanonicalJSON({
    app: app.id,
    server: app.kind === 'mcp_server' ? app.manifest.server.url : null,
    definition: tool.definition,
    claims: claimsOf(app, tool.serverTool) ?? null,
  });
}

/** The user's choice for `tool`, when it still counts: "allow" only for the definition it was given to. */
export function userChoiceOf(app: AppRecord, tool: ConsentTool): ToolPolicyDecision | undefined {
  const method = tool.name.slice(app.manifest.app_scope.length + 1);
  const choice = Object.hasOwn(app.consent?.tools ?? {}, method) ? app.consent?.tools?.[method] : undefined;
  if (choice === undefined) return undefined;
  if (choice.decision !== 'allow') return choice.decision;
  return choice.definitionHash === toolDefinitionHash(app, tool) ? 'allow' : undefined;
}

/** The effective policy of `tool` of `app` under the host's `rules`. */
export function effectivePolicy(
  app: AppRecord,
  tool: ConsentTool,
  rules: readonly ToolPolicyRule[],
): ToolConsentPolicy {
  return toolConsentPolicy(consentFacts(app, tool), rules, userChoiceOf(app, tool));
}
