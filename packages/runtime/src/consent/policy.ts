/**
 * The effective consent policy of one Agent Tool (seed 003 §2.3, §4.1; seed 000 §5): allow (runs without a
 * question), ask (the user decides, call by call), or deny (never runs, and is not published in the inventory). A
 * pure function of what is known about the tool — its risk, its kind, the server's claims — and of two policies:
 *
 * 1. the host integrator's rules (`ToolPolicyRule`, a runtime option): the organisation's floor. Among the rules
 *    that match a tool the strictest wins (deny over ask over allow), and no user choice lowers it;
 * 2. the user's own choice for the tool in the app center (allow, ask or deny), when it is still bound to the tool's
 *    current definition (an "allow" given to another definition no longer counts);
 * 3. the default of the tool's risk: `display_only` runs; `user_confirmation` asks, and the user may remember the
 *    answer for the conversation; `system_permission` asks every time; `restricted` asks every time with a second,
 *    deliberate step — and is denied unless a rule or the user enables it.
 *
 * For the tools of an MCP server the annotations are the claims of an untrusted party: by default every tool asks
 * (rememberable for the conversation); only for a server the user marks trusted does a read-only tool run without a
 * question; a tool that says `destructiveHint: true` asks every time, whoever allows it. `system_permission`,
 * `restricted` and a destructive tool are never allowed without a question: an "allow" from a rule or the user
 * means "ask" for them, and their answers are never remembered (seed 000 §5).
 */
import type { LineUpRiskLevel } from '@lineup/shared/protocol';

export const TOOL_POLICY_DECISIONS = ['allow', 'ask', 'deny'] as const;
export type ToolPolicyDecision = (typeof TOOL_POLICY_DECISIONS)[number];

/** One rule of the host integrator's policy. */
export interface ToolPolicyRule {
  /**
   * The tools it covers: a tool's name (`notes.delete`), every tool of an app scope (`notes.*`), or every tool
   * (`*`).
   */
  readonly tools: string;
  /** Only tools of this risk. */
  readonly risk?: LineUpRiskLevel;
  /** Only the tools of MiniApps, or only those of MCP servers. */
  readonly kind?: 'miniapp' | 'mcp_server';
  readonly decision: ToolPolicyDecision;
}

/** What the policy reads about a tool. */
export interface ToolConsentFacts {
  /** `<app_scope>.<method>`. */
  readonly name: string;
  readonly risk: LineUpRiskLevel;
  readonly kind: 'miniapp' | 'mcp_server';
  /** For an MCP server: the user marked it trusted (its read-only claims are then believed). */
  readonly trusted?: boolean;
  /** For an MCP server: it says the tool changes nothing. */
  readonly readOnly?: boolean;
  /** For an MCP server: it says the tool is destructive. */
  readonly destructive?: boolean;
}

/** Who set the decision that applies. */
export type ToolPolicySource = 'host' | 'user' | 'default';

export interface ToolConsentPolicy {
  readonly decision: ToolPolicyDecision;
  readonly source: ToolPolicySource;
  /** For `ask`: whether the user may remember the answer for the rest of the conversation. */
  readonly rememberable: boolean;
  /** For `ask`: a second, deliberate confirmation (`restricted`). */
  readonly extraStep: boolean;
}

const STRICTNESS: Readonly<Record<ToolPolicyDecision, number>> = { allow: 0, ask: 1, deny: 2 };
const stricter = (a: ToolPolicyDecision, b: ToolPolicyDecision) => (STRICTNESS[a] >= STRICTNESS[b] ? a : b);

/** Whether `rule` covers the tool. */
export function ruleMatches(rule: ToolPolicyRule, facts: ToolConsentFacts): boolean {
  if (rule.risk !== undefined && rule.risk !== facts.risk) return false;
  if (rule.kind !== undefined && rule.kind !== facts.kind) return false;
  if (rule.tools === '*') return true;
  if (rule.tools.endsWith('.*')) return facts.name.startsWith(rule.tools.slice(0, -1));
  return rule.tools === facts.name;
}

/** The host rules' decision for the tool (the strictest of those that match), or undefined when none matches. */
export function hostDecision(
  rules: readonly ToolPolicyRule[],
  facts: ToolConsentFacts,
): ToolPolicyDecision | undefined {
  let decision: ToolPolicyDecision | undefined;
  for (const rule of rules)
    if (ruleMatches(rule, facts))
      decision = decision === undefined ? rule.decision : stricter(decision, rule.decision);
  return decision;
}

/** A tool whose question is asked every time, whoever allows it. */
function alwaysAsked(facts: ToolConsentFacts): boolean {
  return facts.risk === 'system_permission' || facts.risk === 'restricted' || facts.destructive === true;
}

/** The default of the tool's risk (and, for an MCP server, of the user's trust in it). */
export function defaultDecision(facts: ToolConsentFacts): ToolPolicyDecision {
  if (facts.kind === 'mcp_server')
    return facts.trusted === true && facts.readOnly === true && facts.destructive !== true ? 'allow' : 'ask';
  switch (facts.risk) {
    case 'display_only':
      return 'allow';
    case 'restricted':
      return 'deny';
    default:
      return 'ask';
  }
}

/** The effective policy of one tool: see the module's comment for the order. */
export function toolConsentPolicy(
  facts: ToolConsentFacts,
  rules: readonly ToolPolicyRule[] = [],
  userChoice?: ToolPolicyDecision,
): ToolConsentPolicy {
  const host = hostDecision(rules, facts);
  const chosen = userChoice ?? host;
  let decision = chosen === undefined ? defaultDecision(facts) : stricter(chosen, host ?? 'allow');
  const source: ToolPolicySource =
    host !== undefined && (userChoice === undefined || STRICTNESS[host] >= STRICTNESS[userChoice])
      ? 'host'
      : userChoice !== undefined
        ? 'user'
        : 'default';
  if (decision === 'allow' && alwaysAsked(facts)) decision = 'ask';
  return {
    decision,
    source,
    rememberable: decision === 'ask' && !alwaysAsked(facts),
    extraStep: decision === 'ask' && facts.risk === 'restricted',
  };
}

/** Why a value cannot be a host rule, or undefined (the runtime checks the integrator's rules once, at start). */
export function toolPolicyRuleProblem(rule: unknown): string | undefined {
  if (typeof rule !== 'object' || rule === null) return 'A tool policy rule is an object.';
  const { tools, risk, kind, decision, ...rest } = rule as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `A tool policy rule has no field ${Object.keys(rest)[0]}.`;
  if (
    typeof tools !== 'string' ||
    !/^(?:\*|[a-z][a-z0-9_]{0,31}\.(?:\*|[a-z][A-Za-z0-9_]{0,63}))$/.test(tools)
  )
    return 'A rule names its tools as a tool name (notes.delete), an app scope with .* (notes.*), or *.';
  if (
    risk !== undefined &&
    !['display_only', 'user_confirmation', 'system_permission', 'restricted'].includes(risk as string)
  )
    return 'A rule risk is display_only, user_confirmation, system_permission or restricted.';
  if (kind !== undefined && kind !== 'miniapp' && kind !== 'mcp_server')
    return 'A rule kind is miniapp or mcp_server.';
  if (!TOOL_POLICY_DECISIONS.includes(decision as ToolPolicyDecision))
    return 'A rule decision is allow, ask or deny.';
  return undefined;
}
