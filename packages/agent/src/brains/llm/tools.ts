/**
 * The model's tool list: every Agent Tool of the conversation's latest `client.inventory` as a function tool,
 * plus the five `intelligent_ui*` tools of `@lineup/shared/agent`. Function names allow only
 * `[a-zA-Z0-9_-]{1,64}`, so `pomodoro.start` is offered as `pomodoro__start` and mapped back by table.
 */
import { INTELLIGENT_UI_TOOLS } from '@lineup/shared/agent';
import type { AgentToolInventoryEntry } from '@lineup/shared/protocol';
import type { ChatTool } from './chat.js';

/** `pomodoro.start` → `pomodoro__start`; any other unsafe character becomes `_`. */
export function functionNameOf(toolName: string): string {
  return toolName
    .replaceAll('.', '__')
    .replace(/[^a-zA-Z0-9_-]/g, '_')
    .slice(0, 64);
}

function withoutSchemaKeyword(schema: object): object {
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** The Intelligent UI tools as chat completions function tools (their JSON Schema, `$defs` included). */
export const INTELLIGENT_UI_CHAT_TOOLS: readonly ChatTool[] = INTELLIGENT_UI_TOOLS.map((tool) => ({
  type: 'function',
  function: {
    name: tool.name,
    description: tool.description,
    parameters: withoutSchemaKeyword(tool.parameters),
  },
}));

export interface ToolTable {
  readonly tools: readonly ChatTool[];
  /** Function name → inventory tool name, for Agent Tools only. */
  readonly agentTools: ReadonlyMap<string, string>;
}

export function buildToolTable(inventory: readonly AgentToolInventoryEntry[]): ToolTable {
  const agentTools = new Map<string, string>();
  const tools: ChatTool[] = [];
  const reserved = new Set(INTELLIGENT_UI_CHAT_TOOLS.map((tool) => tool.function.name));
  for (const entry of inventory) {
    const name = functionNameOf(entry.name);
    if (agentTools.has(name) || reserved.has(name)) continue; // a collision: the first one wins
    agentTools.set(name, entry.name);
    tools.push({
      type: 'function',
      function: {
        name,
        description: `${entry.description} (LineUp Agent Tool \`${entry.name}\`, contract ${entry.contract_version}, ${entry.call_model}.)`,
        parameters: withoutSchemaKeyword(entry.input_schema as object),
      },
    });
  }
  return { tools: [...tools, ...INTELLIGENT_UI_CHAT_TOOLS], agentTools };
}
