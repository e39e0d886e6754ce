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
import {
  AGENT_TOOL_ACTIVATIONS,
  AGENT_TOOL_CALL_MODELS,
  AGENT_TOOL_LIMITS,
  type AgentToolDescriptor,
  AppScopeSchema,
  LINEUP_RISK_LEVELS,
  parseAgentToolDescriptor,
  ToolMethodSchema,
} from '@lineup/shared/protocol';
import type { z } from 'zod';
import type { AgentToolDefinition, AgentTools, RuntimeAgentTool, SdkAgentTool } from './agent-tool.js';
import { agentToolsOf } from './handle.js';
import { unrepresentableField } from './schema-field.js';

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
