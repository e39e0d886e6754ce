/**
 * The planning guidance (seed 004 §2, seed 002 §1): a system-prompt section that lets the model choose between
 * `text`, `structured_ui` and `interactive_ui` and write a valid document on the first try. It is generated
 * from the catalog, the limits and the document JSON Schema, so it says what the validator does; sections
 * about tools the agent cannot call are left out ("工具被 Agent scope 隐藏时，相应规划章节不输出"). The output
 * is deterministic (no locale, no clock), so hosts can cache it and reviewers can diff it.
 */
import {
  isUIIdentifier,
  UI_DEFAULT_RESULT_DIGITS,
  UI_EXPRESSION_OPERATORS,
  UI_FORBIDDEN_IDENTIFIERS,
  UI_IDENTIFIER_PATTERN,
} from '../dsl/catalog.js';
import {
  UI_COMPONENT_TABLE,
  UI_COMPONENT_TYPES,
  UI_COMPONENTS,
  UI_INPUT_COMPONENTS,
  UI_LAYOUT_COMPONENTS,
} from '../dsl/components.js';
import {
  MIN_HOST_DOCUMENT_BYTES,
  UI_LIMITS,
  UI_PROTOCOL_LIMITS,
  UI_SCHEMA_LIMITS,
} from '../limits/ui-limits.js';
import {
  argumentTypes,
  arity,
  code,
  count,
  definition,
  formatJSON,
  INTELLIGENT_UI_PROMPT_EXAMPLE,
  names,
  OPERATOR_NOTES,
  propertiesOf,
  propsSchema,
  returnType,
  singleLine,
  variants,
} from './guidance-parts.js';
import {
  describeObject,
  describeProperties,
  describeSchema,
  type JSONSchemaNode,
} from './schema-notation.js';
import { INTELLIGENT_UI_TOOL_BY_NAME, type IntelligentUIToolName } from './tools.js';

export { INTELLIGENT_UI_PROMPT_EXAMPLE } from './guidance-parts.js';

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
    return `- ${code(type)} ${code(shape)}: ${UI_COMPONENT_TABLE[type].note}`;
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
