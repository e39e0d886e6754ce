/**
 * Agent Tool descriptors (seed 003 §4.1): the non-executable contract a MiniApp declares with
 * `defineAgentTools`, the build writes into its manifest, the runtime validates, and — projected — publishes
 * to the agent in `client.inventory`.
 *
 * A descriptor names a method and its contract; it never names or contains the handler (seed 003 §4.1
 * "不包含 handler、私有函数名或其他可执行内容"). The handler lives in the bundle's SDK (`miniapp_sdk`), or the
 * call is served by one of the runtime's closed list of built-ins (`runtime`).
 *
 * Tool names are `<app_scope>.<method>` (`pomodoro.start`, seed 003 §2.1): one dot, so a name splits back
 * into its scope and method without ambiguity.
 */
import { z } from 'zod';
import { LineUpProtocolError } from '../../errors/errors.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { messageBudget, parseShape } from '../../json/parse.js';
import { AGENT_TOOL_LIMITS } from '../../limits/tool-limits.js';
import { AppScopeSchema, TOKEN_PATTERN, TOOL_METHOD_PATTERN, ToolMethodSchema } from '../../names/names.js';
import {
  CapabilityNameSchema,
  ContractVersionSchema,
  checkUnique,
  humanText,
  RiskLevelSchema,
} from '../messages/common.js';
import { jsonSchemaObject } from '../messages/json-schema-shape.js';
import { SurfaceIdSchema } from '../messages/surface.js';
import { checkNoScriptURLs } from './executable-content.js';

/** A published tool name: `<app_scope>.<method>`. */
export const AGENT_TOOL_NAME_PATTERN = new RegExp(
  `^${TOKEN_PATTERN.source.slice(1, -1)}\\.${TOOL_METHOD_PATTERN.source.slice(1, -1)}$`,
);

export const AgentToolNameSchema = z
  .string()
  .min(1)
  .max(AGENT_TOOL_LIMITS.maxAppScopeLength + 1 + AGENT_TOOL_LIMITS.maxMethodLength)
  .regex(AGENT_TOOL_NAME_PATTERN)
  .meta({ id: 'AgentToolName', description: '<app_scope>.<method>, such as pomodoro.start.' });

/** The name a tool is published under. */
export function agentToolName(tool: { readonly app_scope: string; readonly method: string }): string {
  return `${tool.app_scope}.${tool.method}`;
}

/**
 * seed 003 §4.1 "调用模型": `query` reads facts and changes nothing; `command` makes one change and ends;
 * `interactive` needs the user in the MiniApp; `operation` starts a runtime-managed operation whose unique
 * terminal state is the final result (seed 003 §1, §4.2).
 */
export const AGENT_TOOL_CALL_MODELS = ['query', 'command', 'interactive', 'operation'] as const;
export type AgentToolCallModel = (typeof AGENT_TOOL_CALL_MODELS)[number];

/**
 * seed 003 §4.1: what a call needs before business execution. `app_ready`: the MiniApp session is active and
 * can take method calls; `foreground_required`: that, and in the foreground; `activation_not_required`: the
 * call only touches existing runtime facts and never starts or wakes the MiniApp.
 */
export const AGENT_TOOL_ACTIVATIONS = [
  'app_ready',
  'foreground_required',
  'activation_not_required',
] as const;
export type AgentToolActivation = (typeof AGENT_TOOL_ACTIVATIONS)[number];

/**
 * The runtime's built-in executors, a closed list (seed 003 §4.1 "`runtime` Tool 只能引用 Runtime 内置的受控执行
 * 类型"): `deadline_operation` starts an operation with a persisted deadline once its activation is ready
 * (`pomodoro.start`); `operation_interrupt` cancels a starting activation or settles the current operation
 * as interrupted (`pomodoro.interrupt`, seed 003 §7).
 */
export const RUNTIME_TOOL_BUILTINS = ['deadline_operation', 'operation_interrupt'] as const;
export type RuntimeToolBuiltin = (typeof RUNTIME_TOOL_BUILTINS)[number];

/**
 * Who serves a call: the MiniApp's SDK handler (`miniapp_sdk`), a runtime built-in (`runtime`), or a tool of an
 * installed MCP server (`mcp`, which only an MCP server's manifest declares: docs/mcp.md).
 */
export const AGENT_TOOL_EXECUTOR_KINDS = ['miniapp_sdk', 'runtime', 'mcp'] as const;
export type AgentToolExecutorKind = (typeof AGENT_TOOL_EXECUTOR_KINDS)[number];

/**
 * An MCP tool's own name, as its server lists it: 1–128 characters of letters, digits, `_`, `-`, `.` and `/`
 * (the MCP specification's recommended set). It is what the runtime sends in `tools/call`; the agent sees the
 * tool under its LineUp name (`<app_scope>.<method>`).
 */
export const MCP_TOOL_NAME_PATTERN = /^[A-Za-z0-9_./-]{1,128}$/;

export const McpToolNameSchema = z
  .string()
  .regex(MCP_TOOL_NAME_PATTERN)
  .meta({ id: 'McpToolName', description: "An MCP server's tool name: 1–128 of A–Z a–z 0–9 _ - . /" });

/**
 * `{ kind: 'miniapp_sdk' }`, `{ kind: 'runtime', builtin }` or `{ kind: 'mcp', tool, view? }` (the MCP tool's own
 * name, and the id of the kept view its calls open). One object so an issue points at its field.
 */
export const AgentToolExecutorSchema = z
  .strictObject({
    kind: z.enum(AGENT_TOOL_EXECUTOR_KINDS),
    builtin: z.enum(RUNTIME_TOOL_BUILTINS).exactOptional(),
    tool: McpToolNameSchema.exactOptional(),
    view: SurfaceIdSchema.exactOptional(),
  })
  .superRefine((executor, context) => {
    const issue = (path: string, message: string, code: UIIssueCode) =>
      context.addIssue({ code: 'custom', path: [path], message, params: { code } });
    if (executor.kind === 'runtime' && executor.builtin === undefined)
      issue('builtin', 'A runtime executor names one of the runtime built-ins.', 'missing_property');
    else if (executor.kind !== 'runtime' && executor.builtin !== undefined)
      issue('builtin', 'Only a runtime executor names a built-in.', 'unknown_property');
    if (executor.kind === 'mcp' && executor.tool === undefined)
      issue('tool', "An mcp executor names the MCP server's tool.", 'missing_property');
    if (executor.kind !== 'mcp') {
      if (executor.tool !== undefined)
        issue('tool', 'Only an mcp executor names a tool.', 'unknown_property');
      if (executor.view !== undefined)
        issue('view', 'Only an mcp executor names a view.', 'unknown_property');
    }
  })
  .meta({ id: 'AgentToolExecutor' });
export type AgentToolExecutor = z.infer<typeof AgentToolExecutorSchema>;

/**
 * seed 003 §4.2 step 3: the runtime deduplicates every call by `call_id` and answers a replay with the
 * persisted latest receipt or final result, without executing again. The only idempotency key of v1.
 */
export const AGENT_TOOL_IDEMPOTENCY_KEYS = ['call_id'] as const;

/** The fields the agent sees in `client.inventory` (everything but how the call is executed). */
const publicShape = {
  app_scope: AppScopeSchema,
  method: ToolMethodSchema,
  contract_version: ContractVersionSchema,
  description: humanText(AGENT_TOOL_LIMITS.maxDescriptionLength),
  input_schema: jsonSchemaObject({
    maxBytes: AGENT_TOOL_LIMITS.maxDescriptorBytes,
    what: 'An input schema',
    objectRoot: true,
  }),
  output_schema: jsonSchemaObject({
    maxBytes: AGENT_TOOL_LIMITS.maxDescriptorBytes,
    what: 'An output schema',
  }),
  call_model: z.enum(AGENT_TOOL_CALL_MODELS),
  idempotency: z.enum(AGENT_TOOL_IDEMPOTENCY_KEYS),
  /** How long a call may stay without a final result before the runtime ends it with `timeout`. */
  timeout_ms: z.int().min(AGENT_TOOL_LIMITS.minTimeoutMs).max(AGENT_TOOL_LIMITS.maxTimeoutMs),
  activation: z.enum(AGENT_TOOL_ACTIVATIONS),
  risk: RiskLevelSchema,
};

type DescriptorFields = {
  readonly call_model: AgentToolCallModel;
  readonly activation: AgentToolActivation;
  readonly executor: AgentToolExecutor;
};

/** Rules between fields of one descriptor. */
function checkDescriptor(descriptor: DescriptorFields, context: z.RefinementCtx): void {
  const { executor } = descriptor;
  // seed 003 §4.1: `activation_not_required` never starts or wakes the MiniApp, so its SDK handler (which
  // runs inside the MiniApp) cannot serve the call; only the runtime can.
  if (executor.kind === 'miniapp_sdk' && descriptor.activation === 'activation_not_required') {
    context.addIssue({
      code: 'custom',
      path: ['activation'],
      message: 'A tool served by the MiniApp SDK needs app_ready or foreground_required.',
      params: { code: 'invalid_value' satisfies UIIssueCode },
    });
  }
  // seed 003 §1: an operation is a runtime-managed unit with its own state machine and terminal state.
  if (descriptor.call_model === 'operation' && executor.kind !== 'runtime') {
    context.addIssue({
      code: 'custom',
      path: ['executor', 'kind'],
      message: 'An operation tool is executed by a runtime built-in.',
      params: { code: 'invalid_value' satisfies UIIssueCode },
    });
  }
  // An MCP tool is one request to its server: nothing to start or wake, and no operation of the runtime's.
  if (executor.kind === 'mcp' && descriptor.activation !== 'activation_not_required') {
    context.addIssue({
      code: 'custom',
      path: ['activation'],
      message: 'A tool served by an MCP server needs no activation (activation_not_required).',
      params: { code: 'invalid_value' satisfies UIIssueCode },
    });
  }
  if (executor.kind === 'mcp' && descriptor.call_model !== 'query' && descriptor.call_model !== 'command') {
    context.addIssue({
      code: 'custom',
      path: ['call_model'],
      message: 'A tool served by an MCP server is a query or a command.',
      params: { code: 'invalid_value' satisfies UIIssueCode },
    });
  }
  if (executor.builtin === 'deadline_operation' && descriptor.call_model !== 'operation') {
    context.addIssue({
      code: 'custom',
      path: ['call_model'],
      message: 'The deadline_operation built-in serves operation tools only.',
      params: { code: 'invalid_value' satisfies UIIssueCode },
    });
  }
}

/**
 * seed 003 §4.1: one Agent Tool as the manifest declares it. Closed at every level; its JSON Schemas use a
 * closed keyword list; no string in it may be a script URL.
 */
export const AgentToolDescriptorSchema = z
  .strictObject({
    ...publicShape,
    /** Host capabilities the tool needs (seed 003 §4.1 "所需权限"); declaring one never grants it. */
    permissions: z.array(CapabilityNameSchema).max(AGENT_TOOL_LIMITS.maxPermissions),
    executor: AgentToolExecutorSchema,
  })
  .superRefine((descriptor, context) => {
    checkDescriptor(descriptor, context);
    checkUnique(descriptor.permissions, (name) => name, context, ['permissions'], [], 'permission');
    checkNoScriptURLs(descriptor, context);
  })
  .meta({ id: 'AgentToolDescriptor' });
export type AgentToolDescriptor = z.infer<typeof AgentToolDescriptorSchema>;

/**
 * An Agent Tool as `client.inventory` publishes it (DESIGN.md: Agent Tools are part of the one revisioned
 * inventory): its name and public contract, without the executor or the permissions behind it.
 */
export const AgentToolInventoryEntrySchema = z
  .strictObject({ name: AgentToolNameSchema, ...publicShape })
  .superRefine((entry, context) => {
    if (entry.name !== agentToolName(entry)) {
      context.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'A tool name is its app_scope and method joined by a dot.',
        params: { code: 'invalid_value' satisfies UIIssueCode },
      });
    }
  })
  .meta({ id: 'AgentToolInventoryEntry' });
export type AgentToolInventoryEntry = z.infer<typeof AgentToolInventoryEntrySchema>;

/** The inventory entry of a validated descriptor: the one place that decides what an agent sees. */
export function toAgentToolInventoryEntry(descriptor: AgentToolDescriptor): AgentToolInventoryEntry {
  return {
    name: agentToolName(descriptor),
    app_scope: descriptor.app_scope,
    method: descriptor.method,
    contract_version: descriptor.contract_version,
    description: descriptor.description,
    input_schema: descriptor.input_schema,
    output_schema: descriptor.output_schema,
    call_model: descriptor.call_model,
    idempotency: descriptor.idempotency,
    timeout_ms: descriptor.timeout_ms,
    activation: descriptor.activation,
    risk: descriptor.risk,
  };
}

const DESCRIPTOR_BUDGET = messageBudget(AGENT_TOOL_LIMITS.maxDescriptorBytes);

/**
 * Validates one Agent Tool descriptor: safe JSON within 64 KiB, then the closed shape and its rules. Returns
 * a deep-frozen copy; throws `LineUpProtocolError` with located, coded issues.
 */
export function parseAgentToolDescriptor(input: unknown): AgentToolDescriptor {
  return parseShape(AgentToolDescriptorSchema, input, { budget: DESCRIPTOR_BUDGET }, LineUpProtocolError);
}
