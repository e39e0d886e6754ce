/**
 * What an Agent Tool is to the SDK: the tool an author declares (`SdkAgentTool`, `RuntimeAgentTool`), what its
 * handler learns about a call, and the `AgentTools` a MiniApp hands the runtime with what an invocation ends with.
 * Types only, beneath both `define.ts`, which checks the declarations, and `handle.ts`, which dispatches the
 * invocations, so neither imports the other for them (issue 45: no import cycles).
 */
import type { MiniAppErrorIssue, MiniAppSdkErrorCode } from '@lineup/shared/bridge';
import type {
  AgentToolActivation,
  AgentToolCallModel,
  AgentToolDescriptor,
  LineUpRiskLevel,
} from '@lineup/shared/protocol';
import type { z } from 'zod';

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

/** What an invocation of an SDK tool ends with: the result, or a stable error code for the runtime. */
export type AgentToolOutcome =
  | { readonly status: 'ok'; readonly result: unknown }
  | {
      readonly status: 'error';
      readonly code: AgentToolErrorCode;
      readonly message: string;
      /**
       * For `invalid_arguments` and `invalid_output`: the first refused places (at most 3), each a path of names
       * and indexes in the arguments or the result (`$` for the value itself) and a stable code — never a value.
       * The runtime hands them to the agent.
       */
      readonly issues?: readonly MiniAppErrorIssue[];
    };

/**
 * Why an SDK invocation failed (`MINIAPP_SDK_ERROR_CODES` of the channel): no such SDK method, arguments the
 * input schema refuses, a handler that threw, or a result the output schema refuses (the runtime validates
 * the result again).
 */
export type AgentToolErrorCode = MiniAppSdkErrorCode;

export interface AgentTools {
  readonly appScope: string;
  /**
   * The manifest descriptors, in declaration order: validated and deep-frozen where `defineAgentTools` builds them;
   * in a page built by `lineupMiniApp`, the plain data the build computed and checked.
   */
  readonly descriptors: readonly AgentToolDescriptor[];
  /** Runs the handler of `method` for one invocation; never throws. */
  handle(
    method: string,
    input: unknown,
    context: Omit<AgentToolContext, 'appScope' | 'method'>,
  ): Promise<AgentToolOutcome>;
}
