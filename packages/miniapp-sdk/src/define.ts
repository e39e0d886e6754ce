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
  type RuntimeToolBuiltin,
} from '@lineup/shared/protocol';
import type { z } from 'zod';

/** What a handler learns about the call besides its arguments: never the agent's identity or call id. */
export interface AgentToolContext {
  readonly appScope: string;
  readonly method: string;
  /** Aborted when the runtime gives up on the invocation (timeout, the MiniApp closing). */
  readonly signal: AbortSignal;
}

interface AgentToolContract<Input extends z.ZodObject, Output extends z.ZodType> {
  /** The contract's version (`1.0`); change it when the contract changes. */
  readonly contractVersion: string;
  /** What the tool does, for the agent: when to use it, what it changes, what it returns. */
  readonly description: string;
  /** The arguments: a zod object schema (strict objects recommended). */
  readonly input: Input;
  /** The business result the final `tool.result` carries. */
  readonly output: Output;
  readonly callModel: AgentToolCallModel;
  /** How long a call may go without a final result, 1 s to 1 day. */
  readonly timeoutMs: number;
  readonly activation: AgentToolActivation;
  readonly risk: LineUpRiskLevel;
  /** Host capabilities the tool needs; each must be declared by the app too. Declaring never grants. */
  readonly permissions?: readonly string[];
}

/** A tool served by a handler in the bundle (executor `miniapp_sdk`). */
export interface SdkAgentTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodType = z.ZodType>
  extends AgentToolContract<Input, Output> {
  readonly handler: (
    input: z.infer<Input>,
    context: AgentToolContext,
  ) => z.input<Output> | Promise<z.input<Output>>;
  readonly runtime?: never;
}

/** A tool served by a runtime built-in (executor `runtime`): no code of the app runs for it. */
export interface RuntimeAgentTool<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodType = z.ZodType,
> extends AgentToolContract<Input, Output> {
  readonly runtime: RuntimeToolBuiltin;
  readonly handler?: never;
}

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

/** The message of a handler's exception, bounded; never its stack. */
function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : 'The handler failed.';
  return message.length <= 300 ? message : `${message.slice(0, 299)}…`;
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
      input_schema = jsonSchemaFromZod(tool.input, { io: 'input' });
      output_schema = jsonSchemaFromZod(tool.output);
    } catch {
      issues.push({
        path: where,
        code: 'invalid_value',
        message:
          'Its input and output schemas must be expressible as JSON Schema (no transforms, dates or functions).',
      });
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

  const tools = definition.tools as Readonly<Record<string, AgentToolDefinition>>;
  const agentTools: AgentTools = {
    appScope: definition.appScope,
    descriptors: Object.freeze(descriptors),
    async handle(method, input, context): Promise<AgentToolOutcome> {
      const tool = Object.hasOwn(tools, method) ? tools[method] : undefined;
      if (tool === undefined || typeof tool.handler !== 'function')
        return {
          status: 'error',
          code: 'unknown_method',
          message: 'This MiniApp has no handler for this method.',
        };
      const parsed = tool.input.safeParse(input);
      if (!parsed.success)
        return {
          status: 'error',
          code: 'invalid_arguments',
          message: 'The arguments do not match the input schema.',
        };
      let result: unknown;
      try {
        result = await tool.handler(parsed.data, { ...context, appScope: definition.appScope, method });
      } catch (error) {
        return { status: 'error', code: 'handler_failed', message: failureMessage(error) };
      }
      const output = tool.output.safeParse(result);
      if (!output.success)
        return {
          status: 'error',
          code: 'invalid_result',
          message: 'The handler returned a result the output schema refuses.',
        };
      return { status: 'ok', result: output.data };
    },
  };
  return Object.freeze(agentTools);
}
