/**
 * The planning guidance (seed 004 §2, seed 002 §1): a system-prompt section that lets the model choose between
 * `text`, `structured_ui` and `interactive_ui` and write a valid document on the first try. It is generated
 * from the catalog, the limits and the document JSON Schema, so it says what the validator does; sections
 * about tools the agent cannot call are left out ("工具被 Agent scope 隐藏时，相应规划章节不输出"). The output
 * is deterministic (no locale, no clock), so hosts can cache it and reviewers can diff it.
 */
import {
  type ExpressionOperator,
  isUIIdentifier,
  UI_COMPONENT_TYPES,
  UI_COMPONENTS,
  UI_DEFAULT_PROGRESS_MAX,
  UI_DEFAULT_RESULT_DIGITS,
  UI_EXPRESSION_OPERATORS,
  UI_FORBIDDEN_IDENTIFIERS,
  UI_IDENTIFIER_PATTERN,
  UI_INPUT_COMPONENTS,
  UI_LAYOUT_COMPONENTS,
  UI_MARKDOWN_ALLOWED_ELEMENTS,
  UI_OPERATORS,
  type UIComponentType,
} from '../dsl/catalog.js';
import { documentJsonSchema } from '../dsl/json-schema.js';
import type { UIDocumentV10 } from '../dsl/types.js';
import {
  MIN_HOST_DOCUMENT_BYTES,
  UI_LIMITS,
  UI_PROTOCOL_LIMITS,
  UI_SCHEMA_LIMITS,
} from '../limits/ui-limits.js';
import {
  describeObject,
  describeProperties,
  describeSchema,
  type JSONSchemaNode,
} from './schema-notation.js';
import { INTELLIGENT_UI_TOOL_BY_NAME, type IntelligentUIToolName } from './tools.js';

/** A capability the host lets DSL 1.1 tool actions reference (seed 002 §11); a catalog entry fits. */
export interface IntelligentUIPromptCapability {
  /** The `capabilityId` a document writes. */
  readonly id: string;
  /** What it does, for the model. */
  readonly title: string;
  readonly description?: string;
}

export interface IntelligentUIPromptOptions {
  /**
   * The tools the agent can call in this scope (other names are ignored). Sections of hidden tools are
   * omitted; with neither `intelligent_ui` nor `intelligent_ui_open` the section is empty.
   */
  readonly tools: Iterable<string>;
  /**
   * Set when the host runs DSL 1.1 `invoke` actions: the capabilities a tool action may reference. Without
   * it the guidance teaches DSL 1.0 only, since 1.1 actions would be rejected or never run.
   */
  readonly actions?: { readonly capabilities: readonly IntelligentUIPromptCapability[] };
  /** The host's document generation limit, when lower than the shared 262,144 bytes (seed 002 §9). */
  readonly maxDocumentBytes?: number;
}

// ---------------------------------------------------------------------------------------------------------
// Reading the generated schema

const definitions = documentJsonSchema.$defs as Readonly<Record<string, JSONSchemaNode>>;

function definition(name: string): JSONSchemaNode {
  const found = definitions[name];
  if (found === undefined) throw new Error(`documentJsonSchema has no $defs.${name}.`);
  return found;
}

function variants(node: JSONSchemaNode): readonly JSONSchemaNode[] {
  const list = node.oneOf ?? node.anyOf;
  if (!Array.isArray(list)) throw new Error('Expected a union in documentJsonSchema.');
  return list as JSONSchemaNode[];
}

function propertiesOf(node: JSONSchemaNode): Readonly<Record<string, JSONSchemaNode>> {
  return (node.properties ?? {}) as Record<string, JSONSchemaNode>;
}

/** The `props` schema of one component, checked against the catalog so the two cannot disagree. */
function propsSchema(nodeDefinition: string, type: UIComponentType): JSONSchemaNode {
  const variant = variants(definition(nodeDefinition)).find(
    (candidate) => propertiesOf(candidate).type?.const === type,
  );
  const props = variant === undefined ? undefined : propertiesOf(variant).props;
  if (props === undefined) throw new Error(`documentJsonSchema has no ${type} node.`);
  const { required, optional } = UI_COMPONENTS[type];
  const names = Object.keys(propertiesOf(props));
  const requiredNames = (props.required ?? []) as string[];
  if (
    names.length !== required.length + optional.length ||
    !required.every((name) => requiredNames.includes(name)) ||
    !optional.every((name) => names.includes(name) && !requiredNames.includes(name))
  ) {
    throw new Error(`The ${type} props of documentJsonSchema disagree with UI_COMPONENTS.`);
  }
  return props;
}

// ---------------------------------------------------------------------------------------------------------
// Formatting helpers

/** `262144` → `262,144`; powers of ten from 1e9 as `1e15`. Locale-independent on purpose. */
function count(value: number): string {
  if (value >= 1e9 && Number.isInteger(Math.log10(value))) return `1e${Math.log10(value)}`;
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Line width up to which the example keeps an object or array on one line. */
const EXAMPLE_LINE_WIDTH = 100;

const code = (text: string) => `\`${text}\``;
const names = (list: readonly string[]) => list.map(code).join(', ');

/** JSON on one line with a space after `:` and `,`: `{ "type": "reset" }`. */
function inlineJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJSON).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inlineJSON(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** Pretty JSON that keeps short objects and arrays on one line, so an example stays readable and short. */
function formatJSON(value: unknown, indent = ''): string {
  const inline = inlineJSON(value);
  if (typeof value !== 'object' || value === null || indent.length + inline.length <= EXAMPLE_LINE_WIDTH) {
    return inline;
  }
  const inner = `${indent}  `;
  const lines = Array.isArray(value)
    ? value.map((item) => `${inner}${formatJSON(item, inner)}`)
    : Object.entries(value).map(
        ([key, item]) => `${inner}${JSON.stringify(key)}: ${formatJSON(item, inner)}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.join(',\n')}\n${indent}${close}`;
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------
// What each component and operator is for (the props and arity come from the schema and the catalog)

const COMPONENT_NOTES: Readonly<Record<UIComponentType, string>> = {
  Text: 'Plain text; never HTML. `null` shows as empty.',
  Heading: 'A section heading.',
  Markdown: `Static text in a safe Markdown subset (${UI_MARKDOWN_ALLOWED_ELEMENTS.join(' ')}); no raw HTML, clickable links, images or expressions.`,
  Row: 'Horizontal layout.',
  Column: 'Vertical layout.',
  Grid: 'Responsive grid layout.',
  Card: 'A card with an optional title.',
  Badge: 'A short status label.',
  Table:
    'Static cells only (no expressions or components); every row has exactly the declared column keys. Column keys are unique.',
  Progress: `\`value\` must always be a number; \`max\` defaults to ${UI_DEFAULT_PROGRESS_MAX}, and the initial value must lie in [0, max].`,
  Chart:
    'Each point `value` must always be a number (negative allowed). Point ids are unique within the chart.',
  Input: 'Binds a string state field.',
  NumberInput: 'Binds a number state field. `min`/`max`/`step` may only repeat the state declaration.',
  Select:
    'Binds a string state field; its option values become that field’s whole domain. Option values are unique.',
  Button: 'Runs its action when clicked.',
  Slider:
    'Binds a number state field whose declaration has `min` < `max`. `min`/`max`/`step` may only repeat the state declaration.',
  Checkbox: 'Binds a boolean state field.',
  Form: 'Groups inputs; its submit button runs its one action. Inputs inside update state immediately, as anywhere else.',
  Loading: 'A loading indicator; it starts nothing.',
  Error: 'Shows an error message; it changes nothing.',
  Result: 'A labelled result. With `format`, `value` must always be a number.',
};

const OPERATOR_NOTES: Readonly<Record<ExpressionOperator, string>> = {
  add: 'sum',
  sub: 'first minus second',
  mul: 'product',
  div: 'first divided by second; dividing by 0 fails',
  pow: 'first to the power of second; a non-finite or out-of-range result fails',
  min: 'smallest',
  max: 'largest',
  round: `optional second argument: decimal places, an integer 0–${UI_SCHEMA_LIMITS.maxFractionDigits} (default 0)`,
  eq: 'strict equality: `1` and `"1"` differ',
  lt: 'first < second',
  lte: 'first ≤ second',
  gt: 'first > second',
  gte: 'first ≥ second',
  and: 'logical and, left to right, short-circuit',
  or: 'logical or, left to right, short-circuit',
  not: 'logical not',
  if: 'condition, then, else: only the chosen branch is evaluated; both must be valid',
  concat: 'joins the arguments as text; `null` becomes ""',
};

function arity(operator: ExpressionOperator): string {
  const { minArgs, maxArgs } = UI_OPERATORS[operator];
  return minArgs === maxArgs ? `${minArgs}` : `${minArgs}–${maxArgs}`;
}

function argumentTypes(operator: ExpressionOperator): string {
  const { args, maxArgs } = UI_OPERATORS[operator];
  if (args.length === 1 && maxArgs > 1) return args[0] === 'any' ? 'any scalars' : `all ${args[0]}s`;
  return args.map((type) => (type === 'any' ? 'any scalar' : type)).join(', ');
}

function returnType(operator: ExpressionOperator): string {
  const { returns } = UI_OPERATORS[operator];
  return returns === 'any' ? 'type of the chosen branch' : returns;
}

// ---------------------------------------------------------------------------------------------------------
// The example: a complete, valid document (the tests prove parseDocument accepts it)

/** A small complete 1.0 document the guidance shows as a model answer. */
export const INTELLIGENT_UI_PROMPT_EXAMPLE: UIDocumentV10 = {
  version: '1.0',
  id: 'tip-calculator',
  mode: 'interactive_ui',
  title: 'Tip calculator',
  state: {
    bill: { type: 'number', initial: 80, min: 0, max: 100000, step: 0.01 },
    tipPercent: { type: 'number', initial: 15, min: 0, max: 30, step: 1 },
  },
  derived: {
    tip: {
      op: 'round',
      args: [
        { op: 'mul', args: [{ state: 'bill' }, { op: 'div', args: [{ state: 'tipPercent' }, 100] }] },
        2,
      ],
    },
    total: { op: 'add', args: [{ state: 'bill' }, { derived: 'tip' }] },
  },
  root: {
    id: 'calculator',
    type: 'Card',
    props: { title: 'Split the bill', gap: 'md' },
    children: [
      { id: 'bill-input', type: 'NumberInput', props: { label: 'Bill (USD)', bind: 'bill' } },
      { id: 'tip-slider', type: 'Slider', props: { label: 'Tip (%)', bind: 'tipPercent' } },
      {
        id: 'total-result',
        type: 'Result',
        props: {
          label: 'Total with tip',
          value: { expr: { derived: 'total' } },
          format: { style: 'currency', currency: 'USD', digits: 2 },
        },
      },
      {
        id: 'reset-button',
        type: 'Button',
        props: { label: 'Reset', action: { type: 'reset' }, variant: 'secondary' },
      },
    ],
  },
};

// ---------------------------------------------------------------------------------------------------------
// Sections

interface Scope {
  readonly document: boolean;
  readonly open: boolean;
  readonly patch: boolean;
  readonly complete: boolean;
  readonly cancel: boolean;
  readonly actions: { readonly capabilities: readonly IntelligentUIPromptCapability[] } | undefined;
  readonly maxDocumentBytes: number;
  /** The tool that shows a complete document: `intelligent_ui`, or `intelligent_ui_open` when only it is offered. */
  readonly showTool: IntelligentUIToolName;
  readonly nodeDefinition: 'NodeV1_0' | 'NodeV1_1';
}

function planSection(scope: Scope): string[] {
  const tool = code(scope.showTool);
  return [
    '## Intelligent UI',
    '',
    'Besides text, you can show the user a declarative UI that the host validates and renders with trusted components. Choose one plan for each reply:',
    '',
    '- **`text`**: the answer is an explanation, a short fact, a conversation turn, or anything a UI would not make clearer. Answer normally; call no UI tool.',
    '- **`structured_ui`**: the content reads better laid out: comparisons, summaries, key figures, tables, charts, progress. ' +
      `Call ${tool} with \`mode: "structured_ui"\` (display only, no input components).`,
    '- **`interactive_ui`**: the user gains from changing values and seeing results at once: calculators, estimators, configurators, forms. ' +
      `Call ${tool} with \`mode: "interactive_ui"\`; inputs update local state and derived values in the user’s browser without calling you.`,
    '',
    '`text` is a plan, not a document mode: never send an empty or placeholder document. Do not force every answer into a UI. A document is data only: it cannot run code, load URLs, embed HTML or call tools. Figures you make up for a demo are not live data; say so.',
  ];
}

function callSection(scope: Scope): string[] {
  if (!scope.document) return [];
  return [
    '',
    '### Calling `intelligent_ui`',
    '',
    'Pass exactly one parameter, `document`: the complete document as a JSON object, never as a JSON string. There are no other parameters (no `html`, `code`, `url` or `tool`).',
    `If the host rejects the document, the result lists up to ${UI_SCHEMA_LIMITS.maxToolIssues} issues as \`path: code — message\`, with paths from the arguments (\`document.root.children[2].props.bind\`). Fix every listed issue and call again; nothing was shown. On success you get a short receipt, not the document.`,
  ];
}

function documentSection(scope: Scope): string[] {
  const v10 = propertiesOf(definition('DocumentV1_0'));
  const v11 = propertiesOf(definition('DocumentV1_1'));
  const fields = scope.actions ? Object.keys(v11) : Object.keys(v10);
  const notes: Readonly<Record<string, string>> = {
    version: scope.actions
      ? '`"1.1"` when the document declares host actions, else `"1.0"`'
      : 'always `"1.0"`',
    id: 'the document’s id',
    mode: 'the plan you chose',
    title: 'title and accessible name',
    state: '`{}` when there is none',
    derived: '`{}` when there is none',
    actions: 'only in `"1.1"`, required there; `{}` when there is none',
    root: 'the one root node',
  };
  const pattern = UI_IDENTIFIER_PATTERN.source;
  return [
    '',
    '### Document',
    '',
    'Notation: `?` marks an optional property (omit it; never send `null` for it). `string(1–512)` is a string of 1 to 512 characters (UTF-16 code units), `string(≤512)` at most 512; `T[1–32]` is an array of 1 to 32 items; `Record<K, V>(≤64)` is an object with at most 64 entries. Every object is closed: unknown properties, unknown components and wrong letter case are rejected, never ignored.',
    '',
    'Every document field is required:',
    '',
    ...fields.map((field) => {
      const type =
        field === 'version' && scope.actions
          ? `${describeSchema(v10.version)} | ${describeSchema(v11.version)}`
          : describeSchema(scope.actions ? v11[field] : v10[field]);
      return `- \`${field}\`: ${code(type)} — ${notes[field] ?? ''}`;
    }),
    '',
    `\`Identifier\` (ids of the document, nodes, state and derived keys, chart points, table column keys${scope.actions ? ', action ids, capability ids, argument keys and result fields' : ''}) matches \`${pattern}\` and is none of ${names([...UI_FORBIDDEN_IDENTIFIERS])}.`,
  ];
}

function nodeSection(): string[] {
  const layouts = names(UI_LAYOUT_COMPONENTS);
  return [
    '',
    '### Nodes',
    '',
    'A node is `{ "id": Identifier, "type": component, "props": { … } }`; `props` is required even when empty (`{}`).',
    '',
    `- Only ${layouts} have \`children\`: an array of nodes, required (may be \`[]\`). No other component may carry \`children\`.`,
    `- Node ids are unique within the document. At most ${count(UI_LIMITS.maxComponents)} nodes; the root is depth 1 and nesting goes at most ${UI_LIMITS.maxDepth} levels deep.`,
    '- A `Form` may not contain another `Form`, directly or through layouts.',
    `- \`structured_ui\` documents may not use ${names(UI_INPUT_COMPONENTS)}; their other components may still show state and derived values.`,
  ];
}

function componentSection(scope: Scope): string[] {
  const rows = UI_COMPONENT_TYPES.map((type) => {
    const props = propsSchema(scope.nodeDefinition, type);
    const { required, optional } = UI_COMPONENTS[type];
    const rendered = describeProperties(props, [...required, ...optional]);
    const shape = rendered.length === 0 ? '{}' : `{ ${rendered.join(', ')} }`;
    return `- ${code(type)} ${code(shape)}: ${COMPONENT_NOTES[type]}`;
  });
  const required = ['label', 'submitLabel'];
  return [
    '',
    `### The ${UI_COMPONENT_TYPES.length} components`,
    '',
    'Each entry gives the component’s `type`, then its `props`:',
    '',
    ...rows,
    '',
    `\`ResultFormat\` is ${code(describeObject(definition('ResultFormat')))}: \`style: "currency"\` requires \`currency\` and other styles must omit it; \`digits\` defaults to ${UI_DEFAULT_RESULT_DIGITS}; \`"percent"\` formats a ratio (\`0.05\` shows as 5.00%).`,
    `Required labels (${names(required)}, table column and chart point labels) are 1–${UI_LIMITS.maxLabelLength} characters; optional labels, card titles and placeholders at most ${UI_LIMITS.maxLabelLength}.`,
  ];
}

function valueSection(): string[] {
  return [
    '',
    '### Scalar, Value and Expr',
    '',
    '```ts',
    'type Scalar = string | number | boolean | null;',
    'type Expr = Scalar | { state: Identifier } | { derived: Identifier } | { op: Operator; args: Expr[] };',
    'type Value = Scalar | { expr: Expr };',
    '```',
    '',
    `- Strings are at most ${count(UI_LIMITS.maxStringLength)} characters; numbers are finite with an absolute value of at most ${count(UI_LIMITS.maxAbsNumber)}.`,
    '- A component property typed `Value` takes a literal directly (`12000`) or an expression wrapped in `expr` (`{ "expr": { "state": "principal" } }`). A bare `{ "state": "principal" }` is not a `Value` and is rejected.',
    '- A `derived` entry is an `Expr` itself, without the `expr` wrapper. Derived fields may reference each other in any order, but never in a cycle.',
    '- `state` and `derived` references name declared keys only: no paths, indexes, templates, function calls or context. The string `"principal * 2"` is just text.',
    '- There is no implicit conversion between numbers, strings and booleans.',
    '- The host evaluates every derived field, displayed value and `set` value with the initial state: a division by zero, an out-of-range number or a wrong type there rejects the document.',
  ];
}

function operatorSection(): string[] {
  const rows = UI_EXPRESSION_OPERATORS.map(
    (operator) =>
      `- ${code(operator)}: ${arity(operator)} argument${arity(operator) === '1' ? '' : 's'}, ${argumentTypes(operator)} → ${returnType(operator)}; ${OPERATOR_NOTES[operator]}.`,
  );
  return [
    '',
    `### The ${UI_EXPRESSION_OPERATORS.length} operators`,
    '',
    'Each entry gives the number of `args`, their types and the result type:',
    '',
    ...rows,
    '',
    `Every intermediate result must stay finite and within the number and string limits. Numbers are JavaScript doubles, not decimal money.`,
  ];
}

function stateSection(): string[] {
  const declarations = variants(definition('StateDeclaration'));
  return [
    '',
    '### State',
    '',
    'State values are numbers, strings or booleans (never null, objects or arrays):',
    '',
    ...declarations.map((declaration) => `- ${code(describeObject(declaration))}`),
    '',
    '- A string field’s `maxLength` defaults to the string limit; the initial string may be empty.',
    '- `Input` binds a string field, `NumberInput` and `Slider` a number field, `Checkbox` a boolean field, `Select` a string field.',
    '- **One numeric domain per field.** Put `min`, `max` and `step` on the state declaration (`min` ≤ `max`, bounds inclusive). A `NumberInput` or `Slider` may repeat them only with the same values; it may not narrow, widen or add a bound the state lacks. A `Slider` needs a state with both `min` and `max`, `min` < `max`.',
    '- With `step`, valid values are `origin + k × step` for an integer `k`, where `origin` is `min` if declared, else 0: the initial value, user input and `set` values must all be on this grid. Without `step`, any number in range is valid.',
    '- **A Select’s options are the field’s domain.** Its field’s initial value must be one of its option values, and option values must fit the field’s `maxLength`. Every other writer of that field (an `Input`, a `set` action) may only write those values, and all Selects bound to one field have the same set of option values (labels and order may differ). Use a separate field for free text.',
  ];
}

function localActionSection(scope: Scope): string[] {
  return [
    '',
    '### Local actions',
    '',
    `\`Button.action\` and \`Form.action\` take one \`Action\`:`,
    '',
    '- `{ "type": "reset" }` restores every state field to its initial value.',
    '- `{ "type": "set", "key": Identifier, "value": Value }` writes one declared field; `value` may be an expression over the current state. If the result does not fit the field’s domain, the click fails and the state is unchanged.',
    ...(scope.actions
      ? [
          '- `{ "type": "invoke", "actionId": Identifier }` (1.1 only) runs a declared host action; see below.',
        ]
      : []),
    '',
    'Actions never carry tool names, permissions, URLs, code or nested actions. Rendering and loading never run an action; only an explicit click does.',
  ];
}

function hostActionSection(scope: Scope): string[] {
  if (!scope.actions) return [];
  const capabilities = scope.actions.capabilities;
  const definitionNode = definition('ActionDefinition');
  return [
    '',
    '### Host actions (DSL 1.1)',
    '',
    `A \`"1.1"\` document declares its host actions in the top-level \`actions\` dictionary (at most ${UI_PROTOCOL_LIMITS.maxActions}); a Button or Form references one with \`{ "type": "invoke", "actionId": … }\`. A \`"1.0"\` document may have neither \`actions\` nor \`invoke\`. An action definition is one of:`,
    '',
    ...variants(definitionNode).map((variant) => `- ${code(describeObject(variant))}`),
    '',
    '- `tool`: asks the host to run capability `capabilityId` with `arguments`, a flat dictionary of `Value`s (no objects, arrays or code) that may use state and derived values. Never write a tool name, permission, token, principal or URL: the host decides the real tool, its risk, confirmation and which result fields are public.',
    '- `resultMap` maps a declared state key to a public top-level result field (`{ "lines": "totalLines" }`, not a path). The host applies it only after a successful run and only if the user has not edited the state since the click; every mapped value must fit its field’s domain.',
    `- \`agent\`: \`prompt\` must evaluate to a non-empty string of at most ${count(UI_PROTOCOL_LIMITS.maxAgentPromptLength)} characters; it reaches you as the user’s next message. An agent action has no \`resultMap\`.`,
    '- Nothing runs until the user clicks. The user sees a receipt: `accepted` only means the request was queued, not that it finished.',
    '',
    capabilities.length === 0
      ? 'No capabilities are configured now: use only `agent` actions.'
      : 'Capabilities you may reference:',
    ...(capabilities.length === 0
      ? []
      : [
          '',
          ...capabilities.map(
            (capability) =>
              `- \`${capability.id}\`: ${singleLine(capability.title)}${capability.description ? ` — ${singleLine(capability.description)}` : ''}`,
          ),
        ]),
  ];
}

/** The mutation variants as the patch tool's generated parameters state them. */
function mutationVariants(): readonly JSONSchemaNode[] {
  const parameters = INTELLIGENT_UI_TOOL_BY_NAME.intelligent_ui_patch.parameters;
  const mutation = (parameters.$defs as Record<string, JSONSchemaNode> | undefined)?.UIStreamMutation;
  if (mutation === undefined)
    throw new Error('The intelligent_ui_patch parameters have no UIStreamMutation.');
  return variants(mutation);
}

const MUTATION_NOTES: Readonly<Record<string, string>> = {
  add: 'inserts a complete subtree into an existing layout node at `index` (0 = first child)',
  update:
    'replaces all props of an existing node with a complete new props object for its component (its id, type and children stay)',
  remove: 'deletes a non-root node and its subtree',
};

function streamSection(scope: Scope): string[] {
  if (!scope.open) return [];
  const cursor = '{ sourceCallId, generation, baseRevision }';
  const steps: string[] = [
    '`intelligent_ui_open({ document })` shows a complete, valid initial document (for example a Card with a `Loading` node). Its result states `sourceCallId`, `generation`, `revision` and `seq`.',
  ];
  if (scope.patch) {
    steps.push(
      '`intelligent_ui_patch({ sourceCallId, generation, baseRevision, mutation })` applies one mutation per call; repeat as needed.',
    );
  }
  if (scope.complete) steps.push(`\`intelligent_ui_complete(${cursor})\` marks the UI finished.`);
  const mutations = scope.patch
    ? [
        '',
        '`mutation` is one of:',
        '',
        ...mutationVariants().map((variant) => {
          const type = String((propertiesOf(variant).type as JSONSchemaNode | undefined)?.const ?? '');
          return `- ${code(describeObject(variant))}: ${MUTATION_NOTES[type] ?? ''}`;
        }),
        '',
        `After each mutation the whole document must still be valid; a rejected mutation changes nothing. Within one generation the document id, version, mode, \`state\`, \`derived\`${scope.actions ? ', `actions`' : ''}, the root id and type, each Select’s option values and each existing node’s type are fixed: to change them, call \`intelligent_ui_open\` again for a new generation.`,
      ]
    : [];
  return [
    '',
    '### Component streaming',
    '',
    'For a larger UI the user should see while you build it, stream it instead of sending one complete document:',
    '',
    ...steps.map((step, index) => `${index + 1}. ${step}`),
    ...(scope.cancel
      ? ['', `To stop early, call \`intelligent_ui_cancel(${cursor})\`; the user keeps the last valid UI.`]
      : []),
    '',
    '**Cursors:** take `sourceCallId` and `generation` from the result of `intelligent_ui_open`, and `baseRevision` from the `revision` stated by the last successful result of the stream. Never invent or guess them; a rejected call leaves them unchanged.',
    ...mutations,
    '',
    `Inputs work at once; action buttons can be submitted only after the stream is complete. A generation has at most ${UI_PROTOCOL_LIMITS.maxStreamFrames} results, the final one included; a mutation is at most ${count(UI_PROTOCOL_LIMITS.maxStreamMutationBytes)} bytes of JSON.`,
  ];
}

function limitSection(scope: Scope): string[] {
  const lower = scope.maxDocumentBytes < UI_LIMITS.maxDocumentBytes ? ' (this host’s limit)' : '';
  return [
    '',
    '### Limits',
    '',
    `- Document: at most ${count(scope.maxDocumentBytes)} bytes of JSON${lower}, ${count(UI_LIMITS.maxComponents)} nodes, ${UI_LIMITS.maxDepth} levels of nesting; title 1–${UI_LIMITS.maxTitleLength} characters.`,
    `- State: at most ${UI_LIMITS.maxStateFields} fields; derived: at most ${UI_LIMITS.maxDerivedFields} fields.`,
    `- Expressions: at most ${count(UI_LIMITS.maxExpressionNodes)} nodes in the whole document, ${UI_LIMITS.maxExpressionDepth} levels deep, ${UI_SCHEMA_LIMITS.maxOperatorArguments} arguments per operator.`,
    `- Text: labels at most ${UI_LIMITS.maxLabelLength} characters, strings ${count(UI_LIMITS.maxStringLength)}, Markdown ${count(UI_LIMITS.maxMarkdownLength)}.`,
    `- Table: 1–${UI_LIMITS.maxTableColumns} columns, at most ${UI_LIMITS.maxTableRows} rows; Chart: 1–${UI_LIMITS.maxChartPoints} points; Select: 1–${UI_LIMITS.maxSelectOptions} options.`,
    ...(scope.actions
      ? [
          `- Host actions: at most ${UI_PROTOCOL_LIMITS.maxActions} per document, ${UI_PROTOCOL_LIMITS.maxActionArguments} arguments (${count(UI_PROTOCOL_LIMITS.maxActionArgumentBytes)} bytes computed) and ${UI_PROTOCOL_LIMITS.maxActionResultFields} \`resultMap\` entries each.`,
        ]
      : []),
  ];
}

function exampleSection(): string[] {
  return [
    '',
    '### Example',
    '',
    'A complete `interactive_ui` document:',
    '',
    '```json',
    formatJSON(INTELLIGENT_UI_PROMPT_EXAMPLE),
    '```',
  ];
}

function resolveScope(options: IntelligentUIPromptOptions): Scope | undefined {
  const offered = new Set<string>(options.tools);
  const document = offered.has('intelligent_ui');
  const open = offered.has('intelligent_ui_open');
  if (!document && !open) return undefined;
  const maxDocumentBytes = options.maxDocumentBytes ?? UI_LIMITS.maxDocumentBytes;
  if (
    !Number.isInteger(maxDocumentBytes) ||
    maxDocumentBytes < MIN_HOST_DOCUMENT_BYTES ||
    maxDocumentBytes > UI_LIMITS.maxDocumentBytes
  ) {
    throw new RangeError(
      `intelligentUIPromptSection: maxDocumentBytes must be an integer from ${MIN_HOST_DOCUMENT_BYTES} to ${UI_LIMITS.maxDocumentBytes}.`,
    );
  }
  const actions = options.actions;
  if (actions) {
    if (actions.capabilities.length > UI_PROTOCOL_LIMITS.maxCapabilities) {
      throw new RangeError(
        `intelligentUIPromptSection: at most ${UI_PROTOCOL_LIMITS.maxCapabilities} capabilities are allowed.`,
      );
    }
    for (const capability of actions.capabilities) {
      if (!isUIIdentifier(capability.id)) {
        throw new TypeError('intelligentUIPromptSection: a capability id is not a valid identifier.');
      }
    }
  }
  return {
    document,
    open,
    patch: open && offered.has('intelligent_ui_patch'),
    complete: open && offered.has('intelligent_ui_complete'),
    cancel: open && offered.has('intelligent_ui_cancel'),
    actions,
    maxDocumentBytes,
    showTool: document ? 'intelligent_ui' : 'intelligent_ui_open',
    nodeDefinition: actions ? 'NodeV1_1' : 'NodeV1_0',
  };
}

/**
 * The Intelligent UI section of a system prompt, in Markdown: the three plans and when to choose each, then
 * the complete DSL (document, nodes, the components with their exact props, Value and Expr, the operators with
 * their arity, state and the shared domain rules, local actions), DSL 1.1 host actions when `actions` is
 * given, component streaming when `intelligent_ui_open` is offered, the key limits and one complete example.
 * Returns `''` when neither `intelligent_ui` nor `intelligent_ui_open` is offered. Deterministic.
 */
export function intelligentUIPromptSection(options: IntelligentUIPromptOptions): string {
  const scope = resolveScope(options);
  if (scope === undefined) return '';
  return [
    ...planSection(scope),
    ...callSection(scope),
    ...documentSection(scope),
    ...nodeSection(),
    ...componentSection(scope),
    ...valueSection(),
    ...operatorSection(),
    ...stateSection(),
    ...localActionSection(scope),
    ...hostActionSection(scope),
    ...streamSection(scope),
    ...limitSection(scope),
    ...exampleSection(),
    '',
  ].join('\n');
}
