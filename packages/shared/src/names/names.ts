/**
 * Names every layer shares: the one machine-token pattern (risk levels, statuses, app scopes, error codes) and
 * the names a MiniApp's tools are published under. Below the bridge and the protocol, which both use them.
 */
import { z } from 'zod';
import { AGENT_TOOL_LIMITS } from '../limits/tool-limits.js';
import { TOKEN_PATTERN, TOOL_METHOD_PATTERN } from './patterns.js';

export { TOKEN_PATTERN, TOOL_METHOD_PATTERN } from './patterns.js';

export const AppScopeSchema = z
  .string()
  .min(1)
  .max(AGENT_TOOL_LIMITS.maxAppScopeLength)
  .regex(TOKEN_PATTERN)
  .meta({ id: 'AppScope', description: 'snake_case, starting with a letter, at most 32 characters.' });

export const ToolMethodSchema = z
  .string()
  .min(1)
  .max(AGENT_TOOL_LIMITS.maxMethodLength)
  .regex(TOOL_METHOD_PATTERN)
  .meta({ id: 'ToolMethod', description: 'A lowercase letter, then letters, digits and _; at most 64.' });
