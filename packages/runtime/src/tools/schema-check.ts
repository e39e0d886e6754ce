/**
 * Readies a carried JSON Schema for the interpreter (`@cfworker/json-schema`, which generates no code): every
 * place where the interpreter would throw, loop or silently ignore something is found here first, so a schema
 * is either usable for every value or refused up front with the JSON pointer of the keyword at fault.
 *
 * The vocabulary is the closed one of `JSON_SCHEMA_KEYWORDS` (@lineup/shared), in the two dialects a schema may
 * declare (`$schema`: 2020-12, the default, or draft-07). What is refused, and why:
 * - a keyword outside the vocabulary (the interpreter would ignore it: the author's constraint would not hold);
 * - a value of the wrong kind for its keyword (`"required": "a"`, `"minimum": "3"`, an unknown type name);
 * - a `pattern` or a `patternProperties` name that is not a JavaScript regular expression with the `u` flag;
 * - a `$ref` or `$dynamicRef` that resolves to no schema inside the document (nothing is ever fetched);
 * - a cycle of references that never reaches into the value (`{"$ref": "#"}`): validating would never end;
 * - `$dynamicRef` in a schema with embedded resources (a nested `$id`), whose dynamic scope the interpreter
 *   does not follow. In a single-resource schema a `$dynamicRef` resolves exactly as a `$ref` does, and is
 *   validated as one.
 * `format` is an annotation in both dialects, never asserted: it is left out of what the interpreter sees.
 */
import { dereference, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { LineUpError } from '@lineup/shared';
import { JSON_SCHEMA_DIALECTS, JSON_SCHEMA_KEYWORDS, JSON_SCHEMA_TYPES } from '@lineup/shared/protocol';

/** Why a schema cannot be used. */
export type SchemaUnusableReason =
  | 'not_a_schema'
  | 'unknown_keyword'
  | 'invalid_keyword_value'
  | 'invalid_pattern'
  | 'unresolved_reference'
  | 'reference_cycle'
  | 'unsupported_dynamic_reference'
  | 'invalid_schema';

/** Whose schema it is, for the message: a tool's input or output, a capability's, a DSL binding's parameters. */
export interface SchemaOwner {
  readonly kind: 'tool' | 'capability' | 'binding';
  readonly name: string;
  readonly schema: 'input' | 'output' | 'parameters';
}

const REASON_TEXT: Readonly<Record<SchemaUnusableReason, string>> = {
  not_a_schema: 'expects a JSON Schema (an object or a boolean)',
  unknown_keyword: 'uses a keyword outside the admitted JSON Schema vocabulary',
  invalid_keyword_value: 'has a value of the wrong kind for its keyword',
  invalid_pattern: 'is not a valid JavaScript regular expression (u flag)',
  unresolved_reference: 'is a reference that resolves to no schema inside this document',
  reference_cycle: 'is a reference that loops back without reaching into the value',
  unsupported_dynamic_reference:
    'is a $dynamicRef in a schema with embedded resources (nested $id), which is not supported',
  invalid_schema: 'is refused by the validator',
};

const ISSUE_CODE = {
  not_a_schema: 'invalid_type',
  unknown_keyword: 'unknown_property',
  invalid_keyword_value: 'invalid_value',
  invalid_pattern: 'invalid_value',
  unresolved_reference: 'unknown_reference',
  reference_cycle: 'derived_cycle',
  unsupported_dynamic_reference: 'invalid_value',
  invalid_schema: 'invalid_value',
} as const satisfies Record<SchemaUnusableReason, string>;

/** A pointer longer than this is cut (it names a place, and a schema's property names are the author's). */
const MAX_POINTER_LENGTH = 256;

/**
 * A JSON Schema the runtime cannot validate with: refused where it enters (an app's install, a capability
 * declaration, a DSL binding), before anything is stored. `pointer` is the RFC 6901 pointer, inside the schema,
 * of the keyword at fault (`""` for the root).
 */
export class SchemaUnusableError extends LineUpError<'schema_unusable'> {
  override readonly name = 'SchemaUnusableError';
  readonly reason: SchemaUnusableReason;
  readonly pointer: string;
  readonly owner: SchemaOwner | undefined;

  constructor(reason: SchemaUnusableReason, pointer: string, owner?: SchemaOwner) {
    const where = pointer === '' ? 'the root' : pointer;
    const whose =
      owner === undefined
        ? 'The schema'
        : `The ${owner.schema} schema of ${owner.kind === 'binding' ? 'DSL capability' : owner.kind} ${owner.name}`;
    const message = `${whose} cannot be used: ${where} ${REASON_TEXT[reason]}.`;
    super('schema_unusable', message, {
      issues: [
        {
          path: `${owner === undefined ? 'schema' : `${owner.schema}_schema`}#${pointer}`,
          code: ISSUE_CODE[reason],
          message: message.slice(0, 300),
        },
      ],
    });
    this.reason = reason;
    this.pointer = pointer;
    this.owner = owner;
  }
}

/** A failure inside the walk: the reason and the pointer, before the owner is known. */
export class SchemaRefusal {
  constructor(
    readonly reason: SchemaUnusableReason,
    readonly pointer: string,
  ) {}
}

/** A schema made ready: the interpreter's copy, its dialect and its resolved references. */
export interface PreparedSchema {
  readonly schema: Schema | boolean;
  readonly draft: SchemaDraft;
  readonly lookup: Record<string, Schema | boolean>;
}

type Kind = 'schema' | 'schema_or_schemas' | 'schemas' | 'schema_map' | 'value';

/** The keywords whose values are schemas, by how they hold them; every other admitted keyword holds a value. */
const SUBSCHEMAS: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ...(
    [
      'not',
      'if',
      'then',
      'else',
      'additionalProperties',
      'additionalItems',
      'propertyNames',
      'contains',
      'unevaluatedProperties',
      'unevaluatedItems',
      'contentSchema',
    ] as const
  ).map((keyword) => [keyword, 'schema'] as const),
  ['items', 'schema_or_schemas'],
  ...(['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const).map((keyword) => [keyword, 'schemas'] as const),
  ...(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const).map(
    (keyword) => [keyword, 'schema_map'] as const,
  ),
]);

/** Keywords whose value kind the interpreter relies on (a wrong kind would make it misread or throw). */
type ValueCheck = (value: unknown) => boolean;
const isString: ValueCheck = (value) => typeof value === 'string';
const isNumber: ValueCheck = (value) => typeof value === 'number' && Number.isFinite(value);
const isCount: ValueCheck = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
const isStrings: ValueCheck = (value) => Array.isArray(value) && value.every(isString);
const VALUES: ReadonlyMap<string, ValueCheck> = new Map<string, ValueCheck>([
  ...(['$id', '$anchor', '$dynamicAnchor', '$ref', '$dynamicRef', 'pattern'] as const).map(
    (keyword) => [keyword, isString] as const,
  ),
  ['$schema', (value) => (JSON_SCHEMA_DIALECTS as readonly unknown[]).includes(value)],
  [
    'type',
    (value) => isTypeName(value) || (Array.isArray(value) && value.length > 0 && value.every(isTypeName)),
  ],
  ['enum', Array.isArray],
  ...(['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'] as const).map(
    (keyword) => [keyword, isNumber] as const,
  ),
  ['multipleOf', (value) => isNumber(value) && (value as number) > 0],
  ...(
    [
      'maxLength',
      'minLength',
      'maxItems',
      'minItems',
      'maxContains',
      'minContains',
      'maxProperties',
      'minProperties',
    ] as const
  ).map((keyword) => [keyword, isCount] as const),
  ['uniqueItems', (value) => typeof value === 'boolean'],
  ['required', isStrings],
  ['dependentRequired', (value) => isRecord(value) && Object.values(value).every(isStrings)],
]);

const KEYWORDS: ReadonlySet<string> = new Set(JSON_SCHEMA_KEYWORDS);
const TYPES: ReadonlySet<unknown> = new Set(JSON_SCHEMA_TYPES);
const DRAFT_07 = JSON_SCHEMA_DIALECTS[1];

function isTypeName(value: unknown): boolean {
  return TYPES.has(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901: `~` as `~0`, `/` as `~1`; bounded. */
function pointerTo(parent: string, key: string | number): string {
  return `${parent}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`.slice(0, MAX_POINTER_LENGTH);
}

function validRegExp(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

interface Walked {
  /** Each schema object, with its pointer. */
  readonly nodes: Map<Schema, string>;
  /** Objects that declare `$id` below the root: embedded resources. */
  embedded: boolean;
  /** The objects whose `$ref` was a `$dynamicRef`, with the pointer of that keyword. */
  readonly dynamic: Map<Schema, string>;
  /** The anchor names (`$anchor`, `$dynamicAnchor`) of each resource: one name, one place. */
  readonly anchors: Map<object, Set<string>>;
}

/** The pointer of the reference `node` holds, as the author wrote it. */
function referencePointer(walked: Walked, node: Schema): string {
  return walked.dynamic.get(node) ?? pointerTo(walked.nodes.get(node) ?? '', '$ref');
}

/** Checks every keyword of `node` and its subschemas; drops `format`. Throws `SchemaRefusal`. */
function walk(node: unknown, pointer: string, walked: Walked, resource: object | null): void {
  if (typeof node === 'boolean') return;
  if (!isRecord(node)) throw new SchemaRefusal('not_a_schema', pointer);
  walked.nodes.set(node as Schema, pointer);
  if (resource !== null && '$id' in node) walked.embedded = true;
  const own = resource === null || '$id' in node ? node : resource;
  for (const keyword of ['$anchor', '$dynamicAnchor'] as const) {
    const name = node[keyword];
    if (typeof name !== 'string') continue;
    const names = walked.anchors.get(own) ?? new Set<string>();
    walked.anchors.set(own, names);
    // The same name twice in one resource: a reference to it would be ambiguous.
    if (names.has(name) && !(keyword === '$dynamicAnchor' && node.$anchor === name))
      throw new SchemaRefusal('invalid_schema', pointerTo(pointer, keyword));
    names.add(name);
  }
  for (const keyword of Object.keys(node)) {
    // At the object: the pointer never repeats a key that is not a keyword.
    if (!KEYWORDS.has(keyword)) throw new SchemaRefusal('unknown_keyword', pointer);
    const value = node[keyword];
    const at = pointerTo(pointer, keyword);
    const check = VALUES.get(keyword);
    if (check !== undefined && !check(value)) throw new SchemaRefusal('invalid_keyword_value', at);
    if (keyword === 'pattern' && !validRegExp(value as string))
      throw new SchemaRefusal('invalid_pattern', at);
    const kind = SUBSCHEMAS.get(keyword);
    if (kind === 'schema' || (kind === 'schema_or_schemas' && !Array.isArray(value)))
      walk(value, at, walked, own);
    else if (kind === 'schemas' || kind === 'schema_or_schemas') {
      if (!Array.isArray(value) || value.length === 0) throw new SchemaRefusal('invalid_keyword_value', at);
      for (const [index, item] of value.entries()) walk(item, pointerTo(at, index), walked, own);
    } else if (kind === 'schema_map') {
      if (!isRecord(value)) throw new SchemaRefusal('invalid_keyword_value', at);
      for (const [name, item] of Object.entries(value)) {
        const itemAt = pointerTo(at, name);
        if (keyword === 'patternProperties' && !validRegExp(name))
          throw new SchemaRefusal('invalid_pattern', itemAt);
        walk(item, itemAt, walked, own);
      }
    }
  }
  // An annotation in both dialects: the interpreter would assert it.
  delete node.format;
}

/**
 * In a single-resource schema, `$dynamicRef` resolves as `$ref` does, and a `$dynamicAnchor` is found as an
 * `$anchor` is: rewrite them so for the interpreter (which knows `$ref` and `$anchor` only).
 */
function staticDynamicReferences(walked: Walked): void {
  const { dynamic } = walked;
  for (const [node, pointer] of [...walked.nodes]) {
    if (typeof node.$dynamicAnchor === 'string') {
      if (node.$anchor !== undefined && node.$anchor !== node.$dynamicAnchor)
        throw new SchemaRefusal('unsupported_dynamic_reference', pointerTo(pointer, '$dynamicAnchor'));
      node.$anchor = node.$dynamicAnchor;
      delete node.$dynamicAnchor;
    }
    if (typeof node.$dynamicRef !== 'string') continue;
    if (walked.embedded)
      throw new SchemaRefusal('unsupported_dynamic_reference', pointerTo(pointer, '$dynamicRef'));
    const reference = node.$dynamicRef as string;
    delete node.$dynamicRef;
    if (node.$ref === undefined) {
      node.$ref = reference;
      dynamic.set(node, pointerTo(pointer, '$dynamicRef'));
    } else {
      // Both apply; the new subschema goes last, so no pointer into an existing `allOf` item moves.
      const wrapper: Schema = { $ref: reference };
      node.allOf = [...(node.allOf ?? []), wrapper];
      walked.nodes.set(wrapper, pointerTo(pointer, '$dynamicRef'));
      dynamic.set(wrapper, pointerTo(pointer, '$dynamicRef'));
    }
  }
}

/**
 * What a schema object applies to the same value (no step into it): the edges a reference cycle runs along,
 * each with the pointer of the `$ref` it follows (or `null` for a subschema of the object itself).
 */
function inPlace(
  node: Schema,
  walked: Walked,
  lookup: Record<string, Schema | boolean>,
  draft: SchemaDraft,
): [unknown, string | null][] {
  const edges: [unknown, string | null][] = [];
  if (node.$ref !== undefined)
    edges.push([lookup[node.__absolute_ref__ ?? ''], referencePointer(walked, node)]);
  // draft-07: `$ref` replaces its siblings.
  if (draft === '7' && node.$ref !== undefined) return edges;
  const own: unknown[] = [node.not, node.if, node.then, node.else];
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const)
    own.push(...((node[keyword] as unknown[]) ?? []));
  own.push(...Object.values((node.dependentSchemas as Record<string, unknown>) ?? {}));
  for (const next of own) edges.push([next, null]);
  return edges;
}

/** Throws `SchemaRefusal` at a `$ref` of a cycle that never reaches into the value. */
function refuseCycles(walked: Walked, lookup: Record<string, Schema | boolean>, draft: SchemaDraft): void {
  const done = new Set<unknown>();
  const onPath = new Set<unknown>();
  const visit = (node: unknown, via: string): void => {
    if (!isRecord(node) || done.has(node)) return;
    if (onPath.has(node)) throw new SchemaRefusal('reference_cycle', via);
    onPath.add(node);
    const schema = node as Schema;
    for (const [next, reference] of inPlace(schema, walked, lookup, draft)) visit(next, reference ?? via);
    onPath.delete(node);
    done.add(node);
  };
  for (const node of walked.nodes.keys()) visit(node, '');
}

/**
 * A schema, given as its JSON text, made ready for the interpreter; throws `SchemaRefusal` when it cannot be
 * used. The interpreter marks the objects it is given, so it always gets its own copy.
 */
export function prepareSchema(text: string): PreparedSchema {
  const schema = JSON.parse(text) as unknown;
  const walked: Walked = { nodes: new Map(), embedded: false, dynamic: new Map(), anchors: new Map() };
  walk(schema, '', walked, null);
  if (typeof schema === 'boolean') return { schema, draft: '2020-12', lookup: dereference(schema) };
  const root = schema as Schema;
  const draft: SchemaDraft = root.$schema === DRAFT_07 ? '7' : '2020-12';
  if (draft === '2020-12') staticDynamicReferences(walked);
  let lookup: Record<string, Schema | boolean>;
  try {
    lookup = dereference(root);
  } catch {
    // Two schemas claim the same URI (a repeated `$id` or `$anchor`).
    throw new SchemaRefusal('invalid_schema', '');
  }
  for (const node of walked.nodes.keys())
    if (node.$ref !== undefined && lookup[node.__absolute_ref__ ?? ''] === undefined)
      throw new SchemaRefusal('unresolved_reference', referencePointer(walked, node));
  refuseCycles(walked, lookup, draft);
  return { schema: root, draft, lookup };
}
