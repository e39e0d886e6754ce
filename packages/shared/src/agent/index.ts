/**
 * @lineup/shared/agent — what an agent integration needs to offer the Intelligent UI tools to a model: the five
 * `intelligent_ui*` tool definitions with argument parsers, the planning and DSL prompt section, and
 * diagnostics and receipts shaped for a model (seed 002 §1, §8, §12; seed 004 §2, §5).
 */

// Diagnostics and tool results
export {
  formatIssuesForModel,
  type IntelligentUIStreamToolResult,
  type IntelligentUIToolResult,
  intelligentUIStreamToolResult,
  intelligentUIToolResult,
} from './diagnostics.js';

// Prompt section
export {
  INTELLIGENT_UI_PROMPT_EXAMPLE,
  type IntelligentUIPromptCapability,
  type IntelligentUIPromptOptions,
  intelligentUIPromptSection,
} from './guidance.js';
// Tool definitions
export {
  findIntelligentUITool,
  INTELLIGENT_UI_STREAM_TOOL_NAMES,
  INTELLIGENT_UI_TOOL_BY_NAME,
  INTELLIGENT_UI_TOOL_NAMES,
  INTELLIGENT_UI_TOOLS,
  type IntelligentUIDocumentArguments,
  IntelligentUIDocumentArgumentsSchema,
  type IntelligentUIPatchArguments,
  IntelligentUIPatchArgumentsSchema,
  type IntelligentUIStreamCursorArguments,
  IntelligentUIStreamCursorArgumentsSchema,
  type IntelligentUITool,
  type IntelligentUIToolArguments,
  type IntelligentUIToolArgumentsError,
  type IntelligentUIToolName,
  type IntelligentUIToolParseOptions,
  isIntelligentUIToolName,
} from './tools.js';
