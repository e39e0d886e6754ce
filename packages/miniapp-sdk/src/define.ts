/**
 * `defineAgentTools` (seed 003 §4.1): the one place a MiniApp declares its Agent Tools. Each tool's public
 * contract — method, contract version, description, input and output schemas (zod, converted to JSON Schema
 * with `jsonSchemaFromZod`), call model, timeout, activation requirement, permissions, risk — and how it runs:
 * a local `handler` (executor `miniapp_sdk`) or one of the runtime's built-ins (executor `runtime`).
 *
 * The source is the only truth: the build writes the non-executable descriptors into the manifest
 * (manifest.ts, vite.ts), the bundle keeps `method → handler` and dispatches the runtime's invocations
 * (`handle`). Everything is validated when it is defined, with `parseAgentToolDescriptor`, so a tool the
 * runtime would refuse fails the author's build, not the user's call.
 */
import { jsonSchemaFromZod, LineUpProtocolError, type UIIssue } from '@lineup/shared';
import type { MiniAppSdkErrorCode } from '@lineup/shared/bridge';
import {
  type AgentToolActivation,
  type AgentToolCallModel,
  type AgentToolDescriptor,
  AppScopeSchema,
  type LineUpRiskLevel,
  parseAgentToolDescriptor,
} from '@lineup/shared/protocol';
import type { z } from 'zod';
import { agentToolsOf } from './handle.js';
import { unrepresentableField } from './schema-field.js';

/** What a handler learns about the call besides its arguments: never the agent's identity or call id. */
export interface AgentToolContext {
  readonly appScope: string;
  readonly method: string;
  /** Aborted when the runtime gives up on the invocation (timeout, the MiniApp closing). */
  readonly signal: AbortSignal;
}

/** The call models a tool served by its MiniApp's handler may use: an `operation` is the runtime's. */
export type SdkAgentToolCallModel = Exclude<AgentToolCallModel, 'operation'>;

/**
 * The activations a tool served by its MiniApp's handler may need: `activation_not_required` never starts or
 * wakes the MiniApp, so a handler in it could not run.
 */
export type SdkAgentToolActivation = Exclude<AgentToolActivation, 'activation_not_required'>;

interface AgentToolContract<
  Input extends z.ZodObject,
  Output extends z.ZodType,
  CallModel extends AgentToolCallModel,
  Activation extends AgentToolActivation,
> {
  /** The contract's version (`1.0`); change it when the contract changes. */
  readonly contractVersion: string;
  /** What the tool does, for the agent: when to use it, what it changes, what it returns. */
  readonly description: string;
  /** The arguments: a zod object schema (strict objects recommended), as JSON Schema of what a sender may send. */
  readonly input: Input;
  /** The business result the final `tool.result` carries. */
  readonly output: Output;
  /** `query` reads, `command` makes one change, `interactive` needs the user, `operation` is runtime-managed. */
  readonly callModel: CallModel;
  /** How long a call may go without a final result, 1 s to 1 day. */
  readonly timeoutMs: number;
  /** What the call needs before it runs: the app ready, in the foreground, or nothing (runtime facts only). */
  readonly activation: Activation;
  readonly risk: LineUpRiskLevel;
  /** Host capabilities the tool needs; each must be declared by the app too. Declaring never grants. */
  readonly permissions?: readonly string[];
}

/**
 * A tool served by a handler in the bundle (executor `miniapp_sdk`): call model `query`, `command` or
 * `interactive`, activation `app_ready` or `foreground_required`.
 */
export interface SdkAgentTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodType = z.ZodType>
  extends AgentToolContract<Input, Output, SdkAgentToolCallModel, SdkAgentToolActivation> {
  readonly handler: (
    input: z.infer<Input>,
    context: AgentToolContext,
  ) => z.input<Output> | Promise<z.input<Output>>;
  readonly runtime?: never;
}

/**
 * A tool served by the runtime's `deadline_operation` built-in (executor `runtime`): always call model
 * `operation`; no code of the app runs for it.
 */
export interface DeadlineOperationAgentTool<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodType = z.ZodType,
> extends AgentToolContract<Input, Output, 'operation', AgentToolActivation> {
  readonly runtime: 'deadline_operation';
  readonly handler?: never;
}

/** A tool served by the runtime's `operation_interrupt` built-in (executor `runtime`): any call model. */
export interface OperationInterruptAgentTool<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodType = z.ZodType,
> extends AgentToolContract<Input, Output, AgentToolCallModel, AgentToolActivation> {
  readonly runtime: 'operation_interrupt';
  readonly handler?: never;
}

/** A tool served by a runtime built-in (executor `runtime`), discriminated by `runtime`. */
export type RuntimeAgentTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodType = z.ZodType> =
  | DeadlineOperationAgentTool<Input, Output>
  | OperationInterruptAgentTool<Input, Output>;

/**
 * Any tool. Inside `defineAgentTools({ tools: { … } })` a handler's input is not inferred per tool; wrap a
 * tool in `agentTool(…)` to have its handler typed from its schemas.
 */
// biome-ignore lint/suspicious/noExplicitAny: a record of tools with different schemas.
export type AgentToolDefinition = SdkAgentTool<any, any> | RuntimeAgentTool<any, any>;

/** Returns `tool` unchanged, typing its handler from its `input` and `output` schemas. */
export function agentTool<Input extends z.ZodObject, Output extends z.ZodType>(
  tool: SdkAgentTool<Input, Output> | RuntimeAgentTool<Input, Output>,
): SdkAgentTool<Input, Output> | RuntimeAgentTool<Input, Output> {
  return tool;
}

export interface AgentToolsDefinition<Tools extends Record<string, AgentToolDefinition>> {
  /** The app scope of every tool (`pomodoro`); the manifest's app scope must be the same. */
  readonly appScope: string;
  /** Tools by method name (`start`, `interrupt`). */
  readonly tools: Tools;
}

/** What an invocation of an SDK tool ends with: the result, or a stable error code for the runtime. */
export type AgentToolOutcome =
  | { readonly status: 'ok'; readonly result: unknown }
  | { readonly status: 'error'; readonly code: AgentToolErrorCode; readonly message: string };

/**
 * Why an SDK invocation failed (`MINIAPP_SDK_ERROR_CODES` of the channel): no such SDK method, arguments the
 * input schema refuses, a handler that threw, or a result the output schema refuses (the runtime validates
 * the result again).
 */
export type AgentToolErrorCode = MiniAppSdkErrorCode;

export interface AgentTools {
  readonly appScope: string;
  /** The manifest descriptors, validated and deep-frozen, in declaration order. */
  readonly descriptors: readonly AgentToolDescriptor[];
  /** Runs the handler of `method` for one invocation; never throws. */
  handle(
    method: string,
    input: unknown,
    context: Omit<AgentToolContext, 'appScope' | 'method'>,
  ): Promise<AgentToolOutcome>;
}

/** An issue path inside the definition: `tools.start.input`. */
function prefixed(issues: readonly UIIssue[], prefix: string): UIIssue[] {
  return issues.map((issue) => ({ ...issue, path: issue.path === '$' ? prefix : `${prefix}.${issue.path}` }));
}

/**
 * The JSON Schema of a tool's `input` (what a sender may send) or `output`; for a schema JSON Schema cannot say,
 * a `LineUpProtocolError` at the field (`tools.when.input.at`) that keeps zod's own message.
 */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', where: string): unknown {
  try {
    return jsonSchemaFromZod(schema, { io });
  } catch (error) {
    const found = unrepresentableField(schema, io);
    const field = found.path === '' ? `${where}.${io}` : `${where}.${io}.${found.path}`;
    const because = error instanceof Error ? error.message : String(error);
    throw new LineUpProtocolError([
      {
        path: field,
        code: 'invalid_value',
        message: `The ${io} schema cannot be expressed as JSON Schema${found.path === '' ? '' : ` at ${found.path}`}: ${because}. Use JSON types (a date as z.iso.datetime(), a big number as z.int() or a string; no transforms or functions).`,
      },
    ]);
  }
}

/** Declares a MiniApp's Agent Tools; throws `LineUpProtocolError` (paths like `tools.start.input`). */
export function defineAgentTools<Tools extends Record<string, AgentToolDefinition>>(
  definition: AgentToolsDefinition<Tools>,
): AgentTools {
  const scope = AppScopeSchema.safeParse(definition.appScope);
  if (!scope.success)
    throw new LineUpProtocolError([
      {
        path: 'appScope',
        code: 'invalid_value',
        message: 'An app scope is snake_case, starting with a letter, at most 32 characters.',
      },
    ]);
  const descriptors: AgentToolDescriptor[] = [];
  const issues: UIIssue[] = [];
  for (const [method, tool] of Object.entries(definition.tools)) {
    const where = `tools.${method}`;
    let input_schema: unknown;
    let output_schema: unknown;
    try {
      input_schema = schemaOf(tool.input, 'input', where);
      output_schema = schemaOf(tool.output, 'output', where);
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      issues.push(...error.issues);
      continue;
    }
    const hasHandler = typeof tool.handler === 'function';
    if (hasHandler === (tool.runtime !== undefined)) {
      issues.push({
        path: where,
        code: 'invalid_value',
        message: 'A tool has either a handler (runs in the MiniApp) or a runtime built-in, exactly one.',
      });
      continue;
    }
    try {
      descriptors.push(
        parseAgentToolDescriptor({
          app_scope: definition.appScope,
          method,
          contract_version: tool.contractVersion,
          description: tool.description,
          input_schema,
          output_schema,
          call_model: tool.callModel,
          idempotency: 'call_id',
          timeout_ms: tool.timeoutMs,
          activation: tool.activation,
          risk: tool.risk,
          permissions: [...(tool.permissions ?? [])],
          executor: hasHandler ? { kind: 'miniapp_sdk' } : { kind: 'runtime', builtin: tool.runtime },
        }),
      );
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      issues.push(...prefixed(error.issues, where));
    }
  }
  if (issues.length > 0) throw new LineUpProtocolError(issues);

  return agentToolsOf(definition.appScope, Object.freeze(descriptors), definition.tools);
}
