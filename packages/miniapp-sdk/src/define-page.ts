/**
 * `defineAgentTools` as a page built by the Vite plugin runs it: the plugin already converted the schemas and
 * validated every descriptor in Node at build time (and failed the build otherwise), and gives the page the
 * result (`lineup:miniapp-descriptors`). The page only checks that they are the descriptors of these tools and
 * keeps `method → handler` — no JSON Schema conversion or descriptor validation ships in the page.
 */
import precomputed from 'lineup:miniapp-descriptors';
import { LineUpError } from '@lineup/shared';
import type { AgentToolDefinition, AgentTools } from './agent-tool.js';
import type { AgentToolsDefinition } from './define.js';
import { agentToolsOf } from './handle.js';

/** The page's tools are not the ones the build described (the tools module has side effects that differ). */
export class MiniAppDescriptorsMismatchError extends LineUpError<'descriptors_mismatch'> {
  override readonly name = 'MiniAppDescriptorsMismatchError';
}

export function defineAgentTools<Tools extends Record<string, AgentToolDefinition>>(
  definition: AgentToolsDefinition<Tools>,
): AgentTools {
  const methods = Object.keys(definition.tools);
  const described = precomputed.descriptors.map((descriptor) => descriptor.method);
  if (definition.appScope !== precomputed.appScope || methods.join() !== described.join())
    throw new MiniAppDescriptorsMismatchError(
      'descriptors_mismatch',
      `defineAgentTools: the page declares ${definition.appScope} (${methods.join(', ')}) but the build described ${precomputed.appScope} (${described.join(', ')}). A page declares the tools of the plugin's tools module.`,
    );
  return agentToolsOf(definition.appScope, precomputed.descriptors, definition.tools);
}

export { agentTool } from './define.js';
