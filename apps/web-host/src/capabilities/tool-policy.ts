/**
 * The host integrator's consent rules for Agent Tools: the build's `LINEUP_TOOL_POLICY`, a JSON array of rules
 * (`[{"tools":"files.*","decision":"deny"}]`; see `ToolPolicyRule` of `@lineup/runtime`). They are the deployer's
 * configuration, like `LINEUP_AGENT_URL`: a floor no user choice lowers, never something a page can set. A value that
 * is not a JSON array fails the build (vite.config.ts); a rule the runtime refuses stops the start with its reason
 * (`AppRegistry` names it) rather than running with a guessed policy.
 */

import type { ToolPolicyRule } from '@lineup/runtime';

export function parseToolPolicy(text: string | undefined): readonly ToolPolicyRule[] {
  if (text === undefined || text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('LINEUP_TOOL_POLICY is not JSON.');
  }
  if (!Array.isArray(value))
    throw new Error(
      'LINEUP_TOOL_POLICY is a JSON array of rules such as [{"tools":"files.*","decision":"deny"}].',
    );
  // Each rule is checked by the registry (`AppRegistry` throws for an invalid one, naming it).
  return value as ToolPolicyRule[];
}

/** The rules this build was made with. */
export function configuredToolPolicy(): readonly ToolPolicyRule[] {
  return parseToolPolicy(import.meta.env.LINEUP_TOOL_POLICY as string | undefined);
}
