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
import { describeRefusedPlaces, jsonSchemaFromZod, LineUpProtocolError, type UIIssue } from '@lineup/shared';
import type { MiniAppErrorIssue, MiniAppSdkErrorCode } from '@lineup/shared/bridge';
import {
  AGENT_TOOL_ACTIVATIONS,
  AGENT_TOOL_CALL_MODELS,
  AGENT_TOOL_LIMITS,
  type AgentToolActivation,
  type AgentToolCallModel,
  type AgentToolDescriptor,
  AppScopeSchema,
  LINEUP_RISK_LEVELS,
  type LineUpRiskLevel,
  parseAgentToolDescriptor,
  ToolMethodSchema,
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

/** The characters of `Text`, as a union (`'ab'` → `'a' | 'b'`). */
type CharactersOf<Text extends string> = Text extends `${infer Head}${infer Tail}`
  ? Head | CharactersOf<Tail>
  : never;
type LowercaseLetter = CharactersOf<'abcdefghijklmnopqrstuvwxyz'>;
type MethodCharacter = LowercaseLetter | Uppercase<LowercaseLetter> | CharactersOf<'0123456789_'>;
type MaxMethodLength = (typeof AGENT_TOOL_LIMITS)['maxMethodLength'];

/**
 * Whether `Rest`, after the `Seen` characters, ends a method name: only letters, digits and `_`, at most
 * `maxMethodLength` in all. Checked a character at a time, tail-recursively (TypeScript has no regular
 * expressions in types); a key that is not a literal (`Record<string, …>`) is left to the check at build time.
 */
type IsMethodNameRest<Rest extends string, Seen extends readonly unknown[]> = string extends Rest
  ? true
  : Rest extends `${infer Head}${infer Tail}`
    ? Head extends MethodCharacter
      ? Seen['length'] extends MaxMethodLength
        ? false
        : IsMethodNameRest<Tail, [...Seen, Head]>
      : false
    : true;

/** `TOOL_METHOD_PATTERN` as a type: a lowercase letter, then letters, digits and `_`, at most 64 characters. */
type IsMethodName<Key extends PropertyKey> = Key extends string
  ? string extends Key
    ? true
    : Key extends `${LowercaseLetter}${infer Rest}`
      ? IsMethodNameRest<Rest, [Key]>
      : false
  : false;

/** What the compiler says a tool's key must be (the words of the check at build time). */
type ToolKeyRule =
  `A tool's key is its method name: a lowercase letter, then letters, digits and _, at most ${MaxMethodLength} characters (such as add or addNote)`;

/**
 * Each key of `Tools` that is not a method name, typed as the rule it breaks: `tools: Tools & InvalidToolKeys<Tools>`
 * makes `{ Add: … }` a compile error that reads `Type '…' is not assignable to type '"A tool's key is its method
 * name: …"'` (empty, so nothing, for good keys).
 */
type InvalidToolKeys<Tools> = {
  readonly [Key in keyof Tools as IsMethodName<Key> extends true ? never : Key]: ToolKeyRule;
};

export interface AgentToolsDefinition<Tools extends Record<string, AgentToolDefinition>> {
  /** The app scope of every tool (`pomodoro`); the manifest's app scope must be the same. */
  readonly appScope: string;
  /**
   * Tools by method name (`start`, `interrupt`). A key that is not a method name is a type error as well as a
   * build error.
   */
  readonly tools: Tools & InvalidToolKeys<Tools>;
}

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
  /** The manifest descriptors, validated and deep-frozen, in declaration order. */
  readonly descriptors: readonly AgentToolDescriptor[];
  /** Runs the handler of `method` for one invocation; never throws. */
  handle(
    method: string,
    input: unknown,
    context: Omit<AgentToolContext, 'appScope' | 'method'>,
  ): Promise<AgentToolOutcome>;
}

/** The descriptor's fields by the names an author writes them with. */
const AUTHOR_NAMES: Readonly<Record<string, string>> = {
  contract_version: 'contractVersion',
  input_schema: 'input',
  output_schema: 'output',
  call_model: 'callModel',
  timeout_ms: 'timeoutMs',
};

/** An issue path inside the definition, as the author wrote it: `tools.start.timeoutMs`, `tools.start.input`. */
function prefixed(issues: readonly UIIssue[], prefix: string): UIIssue[] {
  return issues.map((issue) => {
    if (issue.path === '$' || issue.path === 'method' || issue.path === 'app_scope')
      return { ...issue, path: prefix };
    const [first = '', ...rest] = issue.path.split('.');
    const named = [AUTHOR_NAMES[first] ?? first, ...rest].join('.');
    return { ...issue, path: `${prefix}.${named}` };
  });
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

const listed = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

/** What each field of a tool is, for the message that says it is missing. */
const REQUIRED_FIELDS: readonly (readonly [field: string, what: string])[] = [
  [
    'contractVersion',
    "the version of the tool's contract: one to three dot-separated integers, such as '1.0'",
  ],
  ['description', 'what the tool does, in a sentence or two for the agent'],
  ['callModel', `one of ${listed(AGENT_TOOL_CALL_MODELS)}`],
  [
    'timeoutMs',
    `how long a call may run, in milliseconds (${AGENT_TOOL_LIMITS.minTimeoutMs} to ${AGENT_TOOL_LIMITS.maxTimeoutMs})`,
  ],
  ['activation', `one of ${listed(AGENT_TOOL_ACTIVATIONS)}`],
  ['risk', `one of ${listed(LINEUP_RISK_LEVELS)}`],
];

/** Whether `value` is a zod schema (of zod 4: it carries `_zod` and can parse). */
function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_zod' in value &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}

/**
 * The mistakes a newcomer makes in one tool, each at its field with what to write instead: a key that is not a
 * method name, a field left out (with the values it takes), a schema that is not a zod schema. Empty when the
 * tool is complete enough to build its descriptor (which checks the rest).
 */
function contractIssues(method: string, tool: AgentToolDefinition, where: string): UIIssue[] {
  const issues: UIIssue[] = [];
  if (!ToolMethodSchema.safeParse(method).success)
    issues.push({
      path: where,
      code: 'invalid_identifier',
      message: `A tool's key is its method name: a lowercase letter, then letters, digits and _, at most ${AGENT_TOOL_LIMITS.maxMethodLength} characters (such as add or addNote).`,
    });
  if (typeof tool !== 'object' || tool === null) {
    issues.push({
      path: where,
      code: 'invalid_type',
      message: 'A tool is an object: { description, input, output, … }.',
    });
    return issues;
  }
  for (const io of ['input', 'output'] as const) {
    const schema = (tool as unknown as Record<string, unknown>)[io];
    const example = io === 'input' ? 'z.object({ text: z.string() })' : 'z.object({ count: z.number() })';
    if (schema === undefined)
      issues.push({
        path: `${where}.${io}`,
        code: 'missing_property',
        message: `Required: the tool's ${io === 'input' ? 'arguments' : 'result'} as a zod schema, such as ${io}: ${example}.`,
      });
    else if (!isZodSchema(schema))
      issues.push({
        path: `${where}.${io}`,
        code: 'invalid_type',
        message:
          typeof schema === 'object' && schema !== null && !Array.isArray(schema)
            ? `A plain object is not a schema: wrap its fields in z.object({ … }), such as ${io}: ${example}.`
            : `Expected a zod schema, such as ${io}: ${example}.`,
      });
  }
  for (const [field, what] of REQUIRED_FIELDS)
    if ((tool as unknown as Record<string, unknown>)[field] === undefined)
      issues.push({ path: `${where}.${field}`, code: 'missing_property', message: `Required: ${what}.` });
  return issues;
}

/**
 * Declares a MiniApp's Agent Tools; throws `LineUpProtocolError` listing every broken tool at once (paths like
 * `tools.start.input`, each message saying what to write).
 */
export function defineAgentTools<Tools extends Record<string, AgentToolDefinition>>(
  definition: AgentToolsDefinition<Tools>,
): AgentTools {
  const descriptors: AgentToolDescriptor[] = [];
  const issues: UIIssue[] = [];
  if (!AppScopeSchema.safeParse(definition.appScope).success)
    issues.push({
      path: 'appScope',
      code: 'invalid_value',
      message: 'An app scope is snake_case, starting with a letter, at most 32 characters.',
    });
  for (const [method, tool] of Object.entries(definition.tools)) {
    const where = `tools.${method}`;
    const missing = contractIssues(method, tool, where);
    if (missing.length > 0) {
      issues.push(...missing);
      continue;
    }
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
    if (issues.some((issue) => issue.path === 'appScope')) continue;
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

  return agentToolsOf(
    definition.appScope,
    Object.freeze(descriptors),
    definition.tools,
    describeRefusedPlaces,
  );
}
