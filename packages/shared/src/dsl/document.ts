/**
 * `parseDocument`: the trust boundary of every Intelligent UI document (seed 002 §2–§11). One pass proves the
 * input is safe JSON within budget, a second walks it once to check structure, references, static types and
 * cross-component domains, and a third evaluates every derived field, display value and `set` value in the
 * default state. Only then is a deep-frozen copy returned.
 */

import { UIExpressionError, UISchemaError } from '../errors/errors.js';
import { IssueCollector, type IssuePath, type UIIssueCode } from '../errors/issues.js';
import { measureSafeJSON, type SafeJSONBudget } from '../json/safe-json.js';
import {
  MIN_HOST_DOCUMENT_BYTES,
  UI_LIMITS,
  UI_PROTOCOL_LIMITS,
  UI_SCHEMA_LIMITS,
} from '../limits/ui-limits.js';
import {
  isUIIdentifier,
  UI_BADGE_TONES,
  UI_BUTTON_VARIANTS,
  UI_CHART_KINDS,
  UI_COMPONENTS,
  UI_DEFAULT_PROGRESS_MAX,
  UI_DOCUMENT_MODES,
  UI_GAPS,
  UI_GRID_COLUMNS,
  UI_HEADING_LEVELS,
  UI_INPUT_COMPONENTS,
  UI_LAYOUT_COMPONENTS,
  UI_RESULT_CURRENCIES,
  UI_RESULT_STYLES,
  type UIComponentType,
  type UIDocumentMode,
} from './catalog.js';
import { frozenCopy, frozenCopySharing } from './copy.js';
import { checkFieldValue, type FieldDomain, isBoundedNumber, stringMaxLength } from './domain.js';
import { evaluateWith, StepBudget } from './expression.js';
import {
  checkExpression,
  describeTypeSet,
  type ExpressionCheckContext,
  T_BOOLEAN,
  T_NULL,
  T_NUMBER,
  T_STRING,
  type TypeSet,
} from './expression-check.js';
import type { Expr, Scalar, StateDeclaration, UIDocument, UINode, UIState } from './types.js';

export interface ParseDocumentOptions {
  /**
   * A host's generation limit in UTF-8 bytes: it may lower the shared 262,144-byte budget down to 1,024, never
   * raise it (seed 002 §9).
   */
  readonly maxDocumentBytes?: number;
}

/** What the state, value and action helpers need to know about a validated document, computed once. */
export interface DocumentIndex {
  /** Every declared state field with its domain (Select options included). */
  readonly fields: ReadonlyMap<string, FieldDomain>;
  /** Derived field names in declaration order. */
  readonly derivedNames: readonly string[];
  /** Every node by id. */
  readonly nodes: ReadonlyMap<string, UINode>;
}

type JSONObject = { readonly [key: string]: unknown };

const indexes = new WeakMap<object, DocumentIndex>();

const LAYOUT = new Set<string>(UI_LAYOUT_COMPONENTS);
const INPUTS = new Set<string>(UI_INPUT_COMPONENTS);
const TYPE_BY_STATE = { number: T_NUMBER, string: T_STRING, boolean: T_BOOLEAN } as const;
const DOCUMENT_KEYS_V10 = ['version', 'id', 'mode', 'title', 'state', 'derived', 'root'] as const;
const DOCUMENT_KEYS_V11 = [...DOCUMENT_KEYS_V10, 'actions'] as const;
const hasOwn = Object.prototype.hasOwnProperty;

function isObject(value: unknown): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(object: JSONObject, key: string): boolean {
  return hasOwn.call(object, key);
}

/**
 * Validates an untrusted, already decoded JSON value as a 1.0 or 1.1 document. Returns a deep-frozen copy
 * (the input is never modified), or throws `UISchemaError` with at most 20 located issues. A document this
 * function returned is returned as is.
 */
export function parseDocument(input: unknown, options: ParseDocumentOptions = {}): UIDocument {
  const maxBytes = resolveMaxDocumentBytes(options.maxDocumentBytes);
  if (typeof input === 'object' && input !== null && indexes.has(input)) {
    // Already validated and frozen by this module; still honour a lower host budget.
    if (maxBytes === UI_LIMITS.maxDocumentBytes) return input as UIDocument;
  }
  return validateAndCopy(input, maxBytes, null);
}

/**
 * Internal (component streams): validates `input` exactly as `parseDocument` does, with the same issues, and
 * returns a frozen copy that shares every part equal to `base`'s (copy.ts), or `base` itself when the content
 * is the same. `base` must be a document this module validated.
 */
export function parseDocumentSharing(input: unknown, base: UIDocument): UIDocument {
  if (!indexes.has(base))
    throw new TypeError('parseDocumentSharing: the base document did not come from parseDocument.');
  return validateAndCopy(input, UI_LIMITS.maxDocumentBytes, base);
}

function validateAndCopy(input: unknown, maxBytes: number, base: UIDocument | null): UIDocument {
  const issues = new IssueCollector();
  const budget: SafeJSONBudget = {
    maxBytes,
    maxDepth: UI_LIMITS.maxJsonDepth,
    maxValues: UI_LIMITS.maxJsonValues,
  };
  if (measureSafeJSON(input, budget, issues) === undefined) throw new UISchemaError(issues.issues);
  const validator = new DocumentValidator(issues);
  validator.validate(input);
  if (!issues.empty) throw new UISchemaError(issues.issues);
  validator.evaluateDefaults();
  if (!issues.empty) throw new UISchemaError(issues.issues);
  if (base !== null) {
    const document = frozenCopySharing(input as JSONObject, base, indexes.get(base)!.nodes);
    if (document === base) return base;
    indexes.set(document, validator.index(document));
    return document;
  }
  const document = frozenCopy(input) as UIDocument;
  indexes.set(document, validator.index(document));
  return document;
}

/**
 * The index of a validated document. A document that did not come from `parseDocument` is validated first,
 * so helpers never trust a hand-made object (seed 002 §8: do not bypass document validation).
 */
export function documentIndex(document: UIDocument): { document: UIDocument; index: DocumentIndex } {
  const known = indexes.get(document);
  if (known) return { document, index: known };
  const parsed = parseDocument(document);
  return { document: parsed, index: indexes.get(parsed)! };
}

function collectNodes(root: UINode): Map<string, UINode> {
  const nodes = new Map<string, UINode>();
  const stack: UINode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    nodes.set(node.id, node);
    if ('children' in node) for (const child of node.children) stack.push(child);
  }
  return nodes;
}

/**
 * A host's document budget (seed 002 §9: 1,024–262,144 bytes; default the shared maximum). `caller` names the
 * API in the RangeError a wrong value gets. Internal: parseDocument and the agent tools' parseArguments.
 */
export function resolveMaxDocumentBytes(requested: number | undefined, caller = 'parseDocument'): number {
  if (requested === undefined) return UI_LIMITS.maxDocumentBytes;
  if (
    !Number.isInteger(requested) ||
    requested < MIN_HOST_DOCUMENT_BYTES ||
    requested > UI_LIMITS.maxDocumentBytes
  ) {
    throw new RangeError(
      `${caller}: maxDocumentBytes must be an integer from ${MIN_HOST_DOCUMENT_BYTES} to ${UI_LIMITS.maxDocumentBytes}.`,
    );
  }
  return requested;
}

interface DisplayValue {
  readonly value: unknown;
  readonly path: IssuePath;
  /** `number`: must evaluate to a number; `progress`: a number within [0, max]. */
  readonly requirement: 'scalar' | 'number' | 'progress';
  readonly max?: number;
}

interface SetActionUse {
  readonly key: string;
  readonly value: unknown;
  readonly path: IssuePath;
}

interface ControlUse {
  readonly type: 'Input' | 'NumberInput' | 'Slider' | 'Select' | 'Checkbox';
  readonly bind: string;
  readonly props: JSONObject;
  readonly path: IssuePath;
}

class DocumentValidator {
  private readonly path: (string | number)[] = [];
  private version: '1.0' | '1.1' = '1.0';
  private mode: UIDocumentMode = 'interactive_ui';
  private readonly counter = { nodes: 0 };
  private readonly stateDeclarations = new Map<string, StateDeclaration>();
  private readonly invalidState = new Set<string>();
  private derivedInput: JSONObject = {};
  private readonly derivedStatus = new Map<string, 'visiting' | 'failed' | TypeSet>();
  private readonly actionIds = new Set<string>();
  private readonly nodeIds = new Set<string>();
  private componentCount = 0;
  private readonly displayValues: DisplayValue[] = [];
  private readonly setActions: SetActionUse[] = [];
  private readonly agentPrompts: { value: unknown; path: IssuePath }[] = [];
  private readonly controls: ControlUse[] = [];
  private readonly selectOptions = new Map<string, { values: Set<string>; path: IssuePath }>();
  private readonly expressionContext: ExpressionCheckContext;

  constructor(private readonly issues: IssueCollector) {
    this.expressionContext = {
      stateType: (name) => {
        const declaration = this.stateDeclarations.get(name);
        return declaration ? TYPE_BY_STATE[declaration.type] : undefined;
      },
      derivedType: (name, path) => this.derivedType(name, path),
      issues,
      counter: this.counter,
    };
  }

  // ——— issue helpers ———

  private report(code: UIIssueCode, message: string, ...keys: (string | number)[]): void {
    this.issues.add(keys.length ? [...this.path, ...keys] : this.path.slice(), code, message);
  }

  private here(...keys: (string | number)[]): IssuePath {
    return [...this.path, ...keys];
  }

  /** Reports missing required and unknown properties of a closed object; unknown names are never echoed. */
  private checkKeys(object: JSONObject, required: readonly string[], optional: readonly string[]): boolean {
    let ok = true;
    for (const key of required) {
      if (!has(object, key)) {
        this.report('missing_property', `This property is required.`, key);
        ok = false;
      }
    }
    const keys = Object.keys(object);
    if (keys.length > required.length) {
      for (const key of keys) {
        if (!required.includes(key) && !optional.includes(key)) {
          const allowed = [...required, ...optional];
          this.report(
            'unknown_property',
            allowed.length
              ? `Unknown property; allowed properties are: ${allowed.join(', ')}.`
              : 'Unknown property; this object takes no properties.',
          );
          ok = false;
          break;
        }
      }
    }
    return ok;
  }

  private expectObject(value: unknown, key: string | number, what: string): value is JSONObject {
    if (isObject(value)) return true;
    this.report('invalid_type', `Expected ${what} (a JSON object).`, key);
    return false;
  }

  private checkString(object: JSONObject, key: string, min: number, max: number, what = 'text'): boolean {
    const value = object[key];
    if (typeof value !== 'string') {
      this.report('invalid_type', `Expected ${what} (a string).`, key);
      return false;
    }
    if (value.length < min) {
      this.report('string_too_short', `Must be at least ${min} character${min === 1 ? '' : 's'} long.`, key);
      return false;
    }
    if (value.length > max) {
      this.report('string_too_long', `Must be at most ${max} UTF-16 code units long.`, key);
      return false;
    }
    return true;
  }

  private checkOptionalString(object: JSONObject, key: string, max: number): void {
    if (has(object, key)) this.checkString(object, key, 0, max);
  }

  private checkIdentifier(object: JSONObject, key: string | number, what: string): string | undefined {
    const value = object[key as string];
    if (isUIIdentifier(value)) return value;
    this.report(
      'invalid_identifier',
      `${what} must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$ and not be __proto__, prototype or constructor.`,
      key,
    );
    return undefined;
  }

  private checkEnum<T extends string | number>(
    object: JSONObject,
    key: string,
    allowed: readonly T[],
  ): T | undefined {
    if (!has(object, key)) {
      this.report('missing_property', 'This property is required.', key);
      return undefined;
    }
    const value = object[key];
    if ((allowed as readonly unknown[]).includes(value)) return value as T;
    this.report(
      'invalid_value',
      `Must be one of: ${allowed.map((item) => JSON.stringify(item)).join(', ')}.`,
      key,
    );
    return undefined;
  }

  private checkNumber(object: JSONObject, key: string): number | undefined {
    const value = object[key];
    if (typeof value !== 'number') {
      this.report('invalid_type', 'Expected a number.', key);
      return undefined;
    }
    if (!isBoundedNumber(value)) {
      this.report('number_out_of_range', 'Numbers must be finite with an absolute value ≤ 1e15.', key);
      return undefined;
    }
    return value;
  }

  /** A dictionary whose keys are identifiers, with at most `max` entries. */
  private checkDictionary(
    object: JSONObject,
    key: string,
    max: number,
    what: string,
  ): JSONObject | undefined {
    const value = object[key];
    if (!this.expectObject(value, key, what)) return undefined;
    const keys = Object.keys(value);
    if (keys.length > max) {
      this.report('too_many', `At most ${max} entries are allowed.`, key);
      return undefined;
    }
    for (const name of keys) {
      if (!isUIIdentifier(name)) {
        this.report(
          'invalid_identifier',
          'Every key must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$ and not be __proto__, prototype or constructor.',
          key,
        );
        return undefined;
      }
    }
    return value;
  }

  // ——— document ———

  validate(input: unknown): void {
    if (!isObject(input)) {
      this.issues.add([], 'invalid_type', 'A document must be a JSON object.');
      return;
    }
    const version = input.version;
    if (!has(input, 'version')) {
      this.issues.add(['version'], 'missing_property', 'version is required: "1.0" or "1.1".');
      return;
    }
    if (version !== '1.0' && version !== '1.1') {
      this.issues.add(['version'], 'unsupported_version', 'version must be "1.0" or "1.1".');
      return;
    }
    this.version = version;
    if (version === '1.0' && has(input, 'actions')) {
      this.report(
        'actions_not_allowed',
        'Version 1.0 documents have no actions; use version "1.1".',
        'actions',
      );
    }
    this.checkKeys(
      input,
      version === '1.1' ? DOCUMENT_KEYS_V11 : DOCUMENT_KEYS_V10,
      version === '1.0' ? ['actions'] : [],
    );
    if (has(input, 'id')) this.checkIdentifier(input, 'id', 'A document id');
    if (has(input, 'mode')) this.mode = this.checkEnum(input, 'mode', UI_DOCUMENT_MODES) ?? this.mode;
    if (has(input, 'title')) this.checkString(input, 'title', 1, UI_LIMITS.maxTitleLength, 'a title');
    if (has(input, 'state')) this.validateState(input);
    if (has(input, 'derived')) this.validateDerived(input);
    if (version === '1.1' && has(input, 'actions')) this.validateActions(input);
    if (this.issues.full) return;
    if (has(input, 'root')) {
      this.path.push('root');
      this.validateNode(input.root, 1, false);
      this.path.pop();
    }
    if (this.issues.empty) this.checkControls();
  }

  // ——— state (seed 002 §4) ———

  private validateState(document: JSONObject): void {
    const state = this.checkDictionary(document, 'state', UI_LIMITS.maxStateFields, 'the state declarations');
    if (!state) return;
    this.path.push('state');
    for (const name of Object.keys(state)) {
      this.path.push(name);
      const declaration = this.validateStateDeclaration(state[name]);
      if (declaration) this.stateDeclarations.set(name, declaration);
      else this.invalidState.add(name);
      this.path.pop();
    }
    this.path.pop();
  }

  private validateStateDeclaration(input: unknown): StateDeclaration | undefined {
    if (!isObject(input)) {
      this.report('invalid_type', 'A state declaration must be a JSON object.');
      return undefined;
    }
    const type = this.checkEnum(input, 'type', ['number', 'string', 'boolean'] as const);
    if (!type) return undefined;
    const count = this.issues.issues.length;
    switch (type) {
      case 'number': {
        this.checkKeys(input, ['type', 'initial'], ['min', 'max', 'step']);
        const initial = has(input, 'initial') ? this.checkNumber(input, 'initial') : undefined;
        const min = has(input, 'min') ? this.checkNumber(input, 'min') : undefined;
        const max = has(input, 'max') ? this.checkNumber(input, 'max') : undefined;
        const step = has(input, 'step') ? this.checkNumber(input, 'step') : undefined;
        if (min !== undefined && max !== undefined && min > max) {
          this.report('number_out_of_range', 'min must be less than or equal to max.', 'min');
        }
        if (step !== undefined && step <= 0)
          this.report('number_out_of_range', 'step must be positive.', 'step');
        if (this.issues.issues.length !== count || initial === undefined) return undefined;
        return input as unknown as StateDeclaration;
      }
      case 'string': {
        this.checkKeys(input, ['type', 'initial'], ['maxLength']);
        if (has(input, 'maxLength')) {
          const maxLength = input.maxLength;
          if (typeof maxLength !== 'number') this.report('invalid_type', 'Expected an integer.', 'maxLength');
          else if (!Number.isInteger(maxLength))
            this.report('not_integer', 'maxLength must be an integer.', 'maxLength');
          else if (maxLength < UI_SCHEMA_LIMITS.minStringMaxLength || maxLength > UI_LIMITS.maxStringLength) {
            this.report(
              'number_out_of_range',
              `maxLength must be from ${UI_SCHEMA_LIMITS.minStringMaxLength} to ${UI_LIMITS.maxStringLength}.`,
              'maxLength',
            );
          }
        }
        if (has(input, 'initial'))
          this.checkString(input, 'initial', 0, UI_LIMITS.maxStringLength, 'the initial text');
        if (this.issues.issues.length !== count) return undefined;
        return input as unknown as StateDeclaration;
      }
      case 'boolean': {
        this.checkKeys(input, ['type', 'initial'], []);
        if (has(input, 'initial') && typeof input.initial !== 'boolean') {
          this.report('invalid_type', 'Expected true or false.', 'initial');
        }
        if (this.issues.issues.length !== count) return undefined;
        return input as unknown as StateDeclaration;
      }
    }
  }

  // ——— derived and expressions (seed 002 §3) ———

  private validateDerived(document: JSONObject): void {
    const derived = this.checkDictionary(
      document,
      'derived',
      UI_LIMITS.maxDerivedFields,
      'the derived expressions',
    );
    if (!derived) return;
    this.derivedInput = derived;
    for (const name of Object.keys(derived)) this.derivedType(name, undefined);
  }

  /** Static type of a derived field, checking it (once) on first use; cycles are reported on the field. */
  private derivedType(name: string, referencePath: IssuePath | undefined): TypeSet | undefined {
    const status = this.derivedStatus.get(name);
    if (typeof status === 'number') return status;
    if (status === 'failed') return undefined;
    if (status === 'visiting') {
      this.issues.add(
        ['derived', name],
        'derived_cycle',
        'Derived fields may not depend on themselves, directly or indirectly.',
      );
      this.derivedStatus.set(name, 'failed');
      return undefined;
    }
    if (!has(this.derivedInput, name)) {
      if (referencePath)
        this.issues.add(referencePath, 'unknown_reference', 'This derived field is not declared.');
      return undefined;
    }
    this.derivedStatus.set(name, 'visiting');
    const type = checkExpression(this.derivedInput[name], ['derived', name], this.expressionContext);
    // A cycle found inside marks the field failed; keep that verdict.
    if (this.derivedStatus.get(name) === 'failed' || type === undefined) {
      this.derivedStatus.set(name, 'failed');
      return undefined;
    }
    this.derivedStatus.set(name, type);
    return type;
  }

  /** A component Value: a literal scalar, or `{ expr }`. Returns its static type set. */
  private checkValue(object: JSONObject, key: string): TypeSet | undefined {
    const value = object[key];
    if (isObject(value)) {
      if (!has(value, 'expr')) {
        this.report(
          'invalid_type',
          'A dynamic value must be { "expr": … }; state and derived references go inside expr.',
          key,
        );
        return undefined;
      }
      if (Object.keys(value).length !== 1) {
        this.report('unknown_property', 'Unknown property; a dynamic value has only "expr".', key);
        return undefined;
      }
      return checkExpression(value.expr, this.here(key, 'expr'), this.expressionContext);
    }
    return this.checkScalar(value, key);
  }

  private checkScalar(value: unknown, key: string | number): TypeSet | undefined {
    switch (typeof value) {
      case 'string':
        if (value.length <= UI_LIMITS.maxStringLength) return T_STRING;
        this.report(
          'string_too_long',
          `Strings are at most ${UI_LIMITS.maxStringLength} UTF-16 code units.`,
          key,
        );
        return undefined;
      case 'number':
        if (isBoundedNumber(value)) return T_NUMBER;
        this.report('number_out_of_range', 'Numbers must be finite with an absolute value ≤ 1e15.', key);
        return undefined;
      case 'boolean':
        return T_BOOLEAN;
      default:
        if (value === null) return T_NULL;
        this.report('invalid_type', 'Expected a string, number, boolean or null.', key);
        return undefined;
    }
  }

  private requireType(actual: TypeSet | undefined, expected: TypeSet, key: string, what: string): boolean {
    if (actual === undefined) return false;
    if ((actual & ~expected) === 0) return true;
    this.report(
      'type_mismatch',
      `${what} must always be a ${describeTypeSet(expected)}; this is ${describeTypeSet(actual)}.`,
      key,
    );
    return false;
  }

  private displayValue(
    props: JSONObject,
    key: string,
    requirement: DisplayValue['requirement'],
    max?: number,
  ): void {
    const type = this.checkValue(props, key);
    if (type === undefined) return;
    if (requirement !== 'scalar' && !this.requireType(type, T_NUMBER, key, 'This value')) return;
    this.displayValues.push({
      value: props[key],
      path: this.here(key),
      requirement,
      ...(max === undefined ? {} : { max }),
    });
  }

  // ——— actions (seed 002 §6, §11) ———

  private validateActions(document: JSONObject): void {
    const actions = this.checkDictionary(
      document,
      'actions',
      UI_PROTOCOL_LIMITS.maxActions,
      'the action definitions',
    );
    if (!actions) return;
    this.path.push('actions');
    for (const name of Object.keys(actions)) {
      this.actionIds.add(name);
      this.path.push(name);
      this.validateActionDefinition(actions[name]);
      this.path.pop();
    }
    this.path.pop();
  }

  private validateActionDefinition(input: unknown): void {
    if (!isObject(input)) {
      this.report('invalid_type', 'An action definition must be a JSON object.');
      return;
    }
    const kind = this.checkEnum(input, 'kind', ['tool', 'agent'] as const);
    if (kind === 'agent') {
      this.checkKeys(input, ['kind', 'prompt'], []);
      if (!has(input, 'prompt')) return;
      const type = this.checkValue(input, 'prompt');
      if (this.requireType(type, T_STRING, 'prompt', 'An agent prompt')) {
        this.agentPrompts.push({ value: input.prompt, path: this.here('prompt') });
      }
      return;
    }
    if (kind !== 'tool') return;
    this.checkKeys(input, ['kind', 'capabilityId', 'arguments'], ['resultMap']);
    if (has(input, 'capabilityId')) this.checkIdentifier(input, 'capabilityId', 'A capability id');
    if (has(input, 'arguments')) {
      const args = this.checkDictionary(
        input,
        'arguments',
        UI_PROTOCOL_LIMITS.maxActionArguments,
        'the arguments',
      );
      if (args) {
        this.path.push('arguments');
        // seed 002 §11: a flat dictionary of scalar Values; no objects, arrays, paths or code.
        for (const name of Object.keys(args)) this.checkValue(args, name);
        this.path.pop();
      }
    }
    if (has(input, 'resultMap')) {
      const resultMap = this.checkDictionary(
        input,
        'resultMap',
        UI_PROTOCOL_LIMITS.maxActionResultFields,
        'the result map',
      );
      if (!resultMap) return;
      this.path.push('resultMap');
      for (const stateKey of Object.keys(resultMap)) {
        if (!this.stateDeclarations.has(stateKey) && !this.invalidState.has(stateKey)) {
          this.report('invalid_result_map', 'resultMap keys must be declared state fields.', stateKey);
        }
        this.checkIdentifier(resultMap, stateKey, 'A result field name');
      }
      this.path.pop();
    }
  }

  /** `props.action` of a Button or Form. */
  private validateAction(props: JSONObject): void {
    const action = props.action;
    if (!this.expectObject(action, 'action', 'an action')) return;
    this.path.push('action');
    // invoke is recognised in 1.0 too, so that it is reported as a 1.1-only action rather than as garbage.
    const type = this.checkEnum(action, 'type', ['reset', 'set', 'invoke'] as const);
    if (type === 'reset') this.checkKeys(action, ['type'], []);
    else if (type === 'set') {
      this.checkKeys(action, ['type', 'key', 'value'], []);
      const key = has(action, 'key') ? this.checkIdentifier(action, 'key', 'A state key') : undefined;
      const declaration = key === undefined ? undefined : this.stateDeclarations.get(key);
      if (key !== undefined && !declaration && !this.invalidState.has(key)) {
        this.report('unknown_reference', 'set may only write a declared state field.', 'key');
      }
      if (has(action, 'value')) {
        const valueType = this.checkValue(action, 'value');
        if (
          declaration &&
          this.requireType(valueType, TYPE_BY_STATE[declaration.type], 'value', 'The set value')
        ) {
          this.setActions.push({ key: key!, value: action.value, path: this.here('value') });
        }
      }
    } else if (type === 'invoke') {
      if (this.version === '1.0') {
        this.report('actions_not_allowed', 'invoke actions need a version "1.1" document.', 'type');
      } else {
        this.checkKeys(action, ['type', 'actionId'], []);
        const actionId = has(action, 'actionId')
          ? this.checkIdentifier(action, 'actionId', 'An action id')
          : undefined;
        if (actionId !== undefined && !this.actionIds.has(actionId)) {
          this.report(
            'unknown_reference',
            "invoke must name an action declared in the document's actions.",
            'actionId',
          );
        }
      }
    }
    this.path.pop();
  }

  // ——— nodes (seed 002 §2, §5) ———

  private validateNode(input: unknown, depth: number, insideForm: boolean): void {
    if (this.issues.full) return;
    if (depth > UI_LIMITS.maxDepth) {
      this.report('too_deep', `Components nest at most ${UI_LIMITS.maxDepth} levels deep.`);
      return;
    }
    this.componentCount++;
    if (this.componentCount === UI_LIMITS.maxComponents + 1) {
      this.issues.add(['root'], 'too_many', `A document has at most ${UI_LIMITS.maxComponents} components.`);
    }
    if (this.componentCount > UI_LIMITS.maxComponents) return;
    if (!isObject(input)) {
      this.report('invalid_type', 'A component must be a JSON object with id, type and props.');
      return;
    }
    const type = input.type;
    if (typeof type !== 'string' || !hasOwn.call(UI_COMPONENTS, type)) {
      this.report(
        has(input, 'type') ? 'unknown_component' : 'missing_property',
        has(input, 'type')
          ? 'Unknown component type (names are case-sensitive).'
          : 'This property is required.',
        'type',
      );
      return;
    }
    const componentType = type as UIComponentType;
    const isLayout = LAYOUT.has(componentType);
    // children is checked below, so that a leaf with children gets children_not_allowed, not unknown_property.
    this.checkKeys(input, ['id', 'type', 'props'], ['children']);
    if (has(input, 'id')) {
      const id = this.checkIdentifier(input, 'id', 'A component id');
      if (id !== undefined) {
        if (this.nodeIds.has(id))
          this.report('duplicate_id', 'Component ids must be unique within the document.', 'id');
        this.nodeIds.add(id);
      }
    }
    if (this.mode === 'structured_ui' && INPUTS.has(componentType)) {
      this.report(
        'input_not_allowed',
        'structured_ui documents cannot contain input components; use interactive_ui.',
        'type',
      );
    }
    if (componentType === 'Form' && insideForm) {
      this.report('nested_form', 'A Form may not contain another Form, directly or through layouts.', 'type');
    }
    if (has(input, 'props') && this.expectObject(input.props, 'props', 'props')) {
      this.path.push('props');
      this.validateProps(componentType, input.props);
      this.path.pop();
    }
    if (isLayout) {
      if (!has(input, 'children')) {
        this.report(
          'children_required',
          `${componentType} requires children (an array, possibly empty).`,
          'children',
        );
        return;
      }
      const children = input.children;
      if (!Array.isArray(children)) {
        this.report('invalid_type', 'children must be an array of components.', 'children');
        return;
      }
      this.path.push('children');
      for (let i = 0; i < children.length; i++) {
        this.path.push(i);
        this.validateNode(children[i], depth + 1, insideForm || componentType === 'Form');
        this.path.pop();
      }
      this.path.pop();
    } else if (has(input, 'children')) {
      this.report(
        'children_not_allowed',
        `Only ${UI_LAYOUT_COMPONENTS.join(', ')} have children.`,
        'children',
      );
    }
  }

  private validateProps(type: UIComponentType, props: JSONObject): void {
    const spec = UI_COMPONENTS[type];
    this.checkKeys(props, spec.required, spec.optional);
    const present = (key: string) => has(props, key);
    if (present('gap')) this.checkEnum(props, 'gap', UI_GAPS);
    switch (type) {
      case 'Text':
      case 'Badge':
        if (present('text')) this.displayValue(props, 'text', 'scalar');
        if (type === 'Badge' && present('tone')) this.checkEnum(props, 'tone', UI_BADGE_TONES);
        return;
      case 'Heading':
        if (present('text')) this.displayValue(props, 'text', 'scalar');
        if (present('level')) this.checkEnum(props, 'level', UI_HEADING_LEVELS);
        return;
      case 'Markdown':
        // seed 002 §5: static text only, no expressions.
        if (present('text')) this.checkString(props, 'text', 0, UI_LIMITS.maxMarkdownLength, 'Markdown text');
        return;
      case 'Row':
      case 'Column':
        return;
      case 'Grid':
        if (present('columns')) this.checkEnum(props, 'columns', UI_GRID_COLUMNS);
        return;
      case 'Card':
        this.checkOptionalString(props, 'title', UI_LIMITS.maxLabelLength);
        return;
      case 'Table':
        this.validateTable(props);
        return;
      case 'Progress': {
        let max: number = UI_DEFAULT_PROGRESS_MAX;
        if (present('max')) {
          const value = this.checkNumber(props, 'max');
          if (value !== undefined && value <= 0)
            this.report('number_out_of_range', 'max must be greater than 0.', 'max');
          else if (value !== undefined) max = value;
        }
        this.checkOptionalString(props, 'label', UI_LIMITS.maxLabelLength);
        if (present('value')) this.displayValue(props, 'value', 'progress', max);
        return;
      }
      case 'Chart':
        if (present('kind')) this.checkEnum(props, 'kind', UI_CHART_KINDS);
        this.checkOptionalString(props, 'label', UI_LIMITS.maxLabelLength);
        if (present('data')) this.validateChartData(props);
        return;
      case 'Input':
        this.checkString(props, 'label', 1, UI_LIMITS.maxLabelLength, 'a label');
        this.checkOptionalString(props, 'placeholder', UI_LIMITS.maxLabelLength);
        this.control(type, props);
        return;
      case 'NumberInput':
      case 'Slider':
        this.checkString(props, 'label', 1, UI_LIMITS.maxLabelLength, 'a label');
        for (const key of ['min', 'max', 'step']) if (present(key)) this.checkNumber(props, key);
        this.control(type, props);
        return;
      case 'Checkbox':
        this.checkString(props, 'label', 1, UI_LIMITS.maxLabelLength, 'a label');
        this.control(type, props);
        return;
      case 'Select':
        this.checkString(props, 'label', 1, UI_LIMITS.maxLabelLength, 'a label');
        this.control(type, props);
        return;
      case 'Button':
        this.checkString(props, 'label', 1, UI_LIMITS.maxLabelLength, 'a label');
        if (present('variant')) this.checkEnum(props, 'variant', UI_BUTTON_VARIANTS);
        if (present('action')) this.validateAction(props);
        return;
      case 'Form':
        this.checkString(props, 'submitLabel', 1, UI_LIMITS.maxLabelLength, 'a submit label');
        if (present('action')) this.validateAction(props);
        return;
      case 'Loading':
        this.checkOptionalString(props, 'label', UI_LIMITS.maxLabelLength);
        return;
      case 'Error':
        if (present('message')) this.displayValue(props, 'message', 'scalar');
        return;
      case 'Result':
        this.checkOptionalString(props, 'label', UI_LIMITS.maxLabelLength);
        if (present('format')) {
          const formatted = this.validateResultFormat(props);
          if (present('value')) this.displayValue(props, 'value', formatted ? 'number' : 'scalar');
        } else if (present('value')) this.displayValue(props, 'value', 'scalar');
        return;
    }
  }

  /** Checks an array property's item count. */
  private checkArray(
    props: JSONObject,
    key: string,
    min: number,
    max: number,
    what: string,
  ): readonly unknown[] | undefined {
    const value = props[key];
    if (!Array.isArray(value)) {
      this.report('invalid_type', `Expected ${what} (an array).`, key);
      return undefined;
    }
    if (value.length < min) {
      this.report('too_few', `At least ${min} ${what} ${min === 1 ? 'is' : 'are'} required.`, key);
      return undefined;
    }
    if (value.length > max) {
      this.report('too_many', `At most ${max} ${what} are allowed.`, key);
      return undefined;
    }
    return value;
  }

  private validateTable(props: JSONObject): void {
    const columns = has(props, 'columns')
      ? this.checkArray(props, 'columns', 1, UI_LIMITS.maxTableColumns, 'columns')
      : undefined;
    const keys = new Set<string>();
    let columnsValid = columns !== undefined;
    if (columns) {
      this.path.push('columns');
      for (let i = 0; i < columns.length; i++) {
        const column = columns[i];
        if (!this.expectObject(column, i, 'a column { key, label }')) {
          columnsValid = false;
          continue;
        }
        this.path.push(i);
        if (!this.checkKeys(column, ['key', 'label'], [])) columnsValid = false;
        const key = has(column, 'key') ? this.checkIdentifier(column, 'key', 'A column key') : undefined;
        if (key === undefined) columnsValid = false;
        else if (keys.has(key)) {
          this.report('duplicate_id', 'Column keys must be unique within the table.', 'key');
          columnsValid = false;
        } else keys.add(key);
        if (has(column, 'label')) this.checkString(column, 'label', 1, UI_LIMITS.maxLabelLength, 'a label');
        this.path.pop();
      }
      this.path.pop();
    }
    const rows = has(props, 'rows')
      ? this.checkArray(props, 'rows', 0, UI_LIMITS.maxTableRows, 'rows')
      : undefined;
    if (!rows) return;
    this.path.push('rows');
    for (let i = 0; i < rows.length && !this.issues.full; i++) {
      const row = rows[i];
      if (!this.expectObject(row, i, 'a row object')) continue;
      this.path.push(i);
      const rowKeys = Object.keys(row);
      if (columnsValid && (rowKeys.length !== keys.size || rowKeys.some((key) => !keys.has(key)))) {
        this.report('row_columns_mismatch', 'Each row must have exactly the declared column keys.');
      }
      // seed 002 §5: cells are static scalars, no expressions or components.
      for (const key of rowKeys) {
        if (keys.has(key)) this.checkScalar(row[key], key);
      }
      this.path.pop();
    }
    this.path.pop();
  }

  private validateChartData(props: JSONObject): void {
    const data = this.checkArray(props, 'data', 1, UI_LIMITS.maxChartPoints, 'data points');
    if (!data) return;
    const ids = new Set<string>();
    this.path.push('data');
    for (let i = 0; i < data.length && !this.issues.full; i++) {
      const point = data[i];
      if (!this.expectObject(point, i, 'a data point { id, label, value }')) continue;
      this.path.push(i);
      this.checkKeys(point, ['id', 'label', 'value'], []);
      const id = has(point, 'id') ? this.checkIdentifier(point, 'id', 'A data point id') : undefined;
      if (id !== undefined) {
        if (ids.has(id)) this.report('duplicate_id', 'Data point ids must be unique within the chart.', 'id');
        ids.add(id);
      }
      if (has(point, 'label')) this.checkString(point, 'label', 1, UI_LIMITS.maxLabelLength, 'a label');
      if (has(point, 'value')) this.displayValue(point, 'value', 'number');
      this.path.pop();
    }
    this.path.pop();
  }

  /** Returns whether the format is valid. */
  private validateResultFormat(props: JSONObject): boolean {
    const format = props.format;
    if (!this.expectObject(format, 'format', 'a result format')) return false;
    this.path.push('format');
    const count = this.issues.issues.length;
    this.checkKeys(format, ['style'], ['currency', 'digits']);
    const style = has(format, 'style') ? this.checkEnum(format, 'style', UI_RESULT_STYLES) : undefined;
    if (style === 'currency' && !has(format, 'currency')) {
      this.report('missing_property', 'style "currency" requires a currency.', 'currency');
    } else if (style !== undefined && style !== 'currency' && has(format, 'currency')) {
      this.report('invalid_value', 'currency is only allowed with style "currency".', 'currency');
    } else if (has(format, 'currency')) this.checkEnum(format, 'currency', UI_RESULT_CURRENCIES);
    if (has(format, 'digits')) {
      const digits = format.digits;
      if (typeof digits !== 'number') this.report('invalid_type', 'Expected an integer.', 'digits');
      else if (!Number.isInteger(digits)) this.report('not_integer', 'digits must be an integer.', 'digits');
      else if (digits < 0 || digits > UI_SCHEMA_LIMITS.maxFractionDigits) {
        this.report(
          'number_out_of_range',
          `digits must be from 0 to ${UI_SCHEMA_LIMITS.maxFractionDigits}.`,
          'digits',
        );
      }
    }
    this.path.pop();
    return this.issues.issues.length === count;
  }

  // ——— controls and shared domains (seed 002 §4) ———

  private control(type: ControlUse['type'], props: JSONObject): void {
    const bind = has(props, 'bind') ? this.checkIdentifier(props, 'bind', 'bind') : undefined;
    if (bind === undefined) return;
    const declaration = this.stateDeclarations.get(bind);
    if (!declaration) {
      if (!this.invalidState.has(bind))
        this.report('unknown_reference', 'bind must name a declared state field.', 'bind');
      return;
    }
    const expected =
      type === 'Checkbox' ? 'boolean' : type === 'NumberInput' || type === 'Slider' ? 'number' : 'string';
    if (declaration.type !== expected) {
      this.report('bind_type_mismatch', `${type} must bind a ${expected} state field.`, 'bind');
      return;
    }
    if (type === 'Select') this.validateSelectOptions(props, bind, declaration);
    this.controls.push({ type, bind, props, path: this.here() });
  }

  private validateSelectOptions(props: JSONObject, bind: string, declaration: StateDeclaration): void {
    if (!has(props, 'options')) return;
    const options = this.checkArray(props, 'options', 1, UI_LIMITS.maxSelectOptions, 'options');
    if (!options) return;
    const maxLength = stringMaxLength(declaration);
    const values = new Set<string>();
    let valid = true;
    this.path.push('options');
    for (let i = 0; i < options.length; i++) {
      const option = options[i];
      if (!this.expectObject(option, i, 'an option { label, value }')) {
        valid = false;
        continue;
      }
      this.path.push(i);
      if (!this.checkKeys(option, ['label', 'value'], [])) valid = false;
      if (has(option, 'label') && !this.checkString(option, 'label', 1, UI_LIMITS.maxLabelLength, 'a label'))
        valid = false;
      if (has(option, 'value')) {
        if (!this.checkString(option, 'value', 0, maxLength, 'an option value')) valid = false;
        else if (values.has(option.value as string)) {
          this.report('duplicate_id', 'Option values must be unique within the Select.', 'value');
          valid = false;
        } else values.add(option.value as string);
      }
      this.path.pop();
    }
    this.path.pop();
    if (!valid) return;
    const existing = this.selectOptions.get(bind);
    if (!existing) this.selectOptions.set(bind, { values, path: this.here('options') });
    else if (
      existing.values.size !== values.size ||
      [...values].some((value) => !existing.values.has(value))
    ) {
      this.report(
        'select_domain_conflict',
        'Every Select bound to the same field must offer the same set of option values.',
        'options',
      );
    }
  }

  /** Cross-component checks that need every control: numeric domains, Select writers. */
  private checkControls(): void {
    for (const control of this.controls) {
      const declaration = this.stateDeclarations.get(control.bind)!;
      if (declaration.type === 'number') {
        if (control.type === 'Slider') {
          const { min, max } = declaration;
          if (min === undefined || max === undefined || !(min < max)) {
            this.issues.add(
              [...control.path, 'bind'],
              'domain_mismatch',
              'A Slider needs its state field to declare min and max with min < max.',
            );
          }
        }
        // seed 002 §4: control min/max/step may only repeat the state's own values exactly.
        for (const key of ['min', 'max', 'step'] as const) {
          if (!has(control.props, key)) continue;
          if (declaration[key] !== control.props[key]) {
            this.issues.add(
              [...control.path, key],
              'domain_mismatch',
              declaration[key] === undefined
                ? `The bound state declares no ${key}; declare it on the state, not on the control.`
                : `${key} must equal the bound state's ${key} exactly (declare ranges on the state).`,
            );
          }
        }
      } else if (control.type === 'Input' && this.selectOptions.has(control.bind)) {
        this.issues.add(
          [...control.path, 'bind'],
          'select_domain_conflict',
          'A Select binds this field, so free-text Input may not write it; use another state field.',
        );
      }
    }
  }

  // ——— default evaluation (seed 002 §3) ———

  private fieldDomain(name: string): FieldDomain {
    const declaration = this.stateDeclarations.get(name)!;
    const options = this.selectOptions.get(name);
    return options ? { declaration, options: options.values } : { declaration };
  }

  evaluateDefaults(): void {
    const state: Record<string, string | number | boolean> = {};
    for (const [name, declaration] of this.stateDeclarations) {
      const violation = checkFieldValue(this.fieldDomain(name), declaration.initial);
      if (violation) this.issues.add(['state', name, 'initial'], violation.code, violation.message);
      state[name] = declaration.initial;
    }
    if (!this.issues.empty) return;
    const derivedValues = new Map<string, Scalar>();
    const failed = new Set<string>();
    const context = {
      state: state as UIState,
      budget: new StepBudget(),
      resolveDerived: (name: string): Scalar => {
        const known = derivedValues.get(name);
        if (known !== undefined || derivedValues.has(name)) return known as Scalar;
        if (failed.has(name)) throw new UIExpressionError('A derived field it depends on failed.');
        const value = evaluateWith(this.derivedInput[name] as Expr, context);
        derivedValues.set(name, value);
        return value;
      },
    };
    for (const name of Object.keys(this.derivedInput)) {
      context.budget = new StepBudget();
      try {
        context.resolveDerived(name);
      } catch (error) {
        failed.add(name);
        this.evaluationFailed(['derived', name], error);
      }
    }
    if (!this.issues.empty) return;
    const evaluate = (value: unknown): Scalar => {
      if (!isObject(value)) return value as Scalar;
      context.budget = new StepBudget();
      return evaluateWith(value.expr as Expr, context);
    };
    for (const display of this.displayValues) {
      try {
        const result = evaluate(display.value);
        if (
          display.requirement === 'progress' &&
          typeof result === 'number' &&
          (result < 0 || result > display.max!)
        ) {
          this.issues.add(
            display.path,
            'number_out_of_range',
            `The default progress value must be within [0, ${display.max}].`,
          );
        }
      } catch (error) {
        this.evaluationFailed(display.path, error);
      }
    }
    for (const use of this.setActions) {
      try {
        const result = evaluate(use.value);
        const violation = checkFieldValue(this.fieldDomain(use.key), result);
        if (violation)
          this.issues.add(use.path, violation.code, `In the default state: ${violation.message}`);
      } catch (error) {
        this.evaluationFailed(use.path, error);
      }
    }
    for (const prompt of this.agentPrompts) {
      try {
        const result = evaluate(prompt.value);
        if (typeof result !== 'string') {
          this.issues.add(prompt.path, 'type_mismatch', 'An agent prompt must compute to a string.');
        } else if (result.length === 0) {
          this.issues.add(
            prompt.path,
            'string_too_short',
            'An agent prompt must compute to a non-empty string.',
          );
        } else if (result.length > UI_PROTOCOL_LIMITS.maxAgentPromptLength) {
          this.issues.add(
            prompt.path,
            'string_too_long',
            `An agent prompt is at most ${UI_PROTOCOL_LIMITS.maxAgentPromptLength} UTF-16 code units.`,
          );
        }
      } catch (error) {
        this.evaluationFailed(prompt.path, error);
      }
    }
  }

  private evaluationFailed(path: IssuePath, error: unknown): void {
    if (!(error instanceof UIExpressionError)) throw error;
    this.issues.add(path, 'evaluation_failed', `Fails in the default state: ${error.message}`);
  }

  // ——— index ———

  index(document: UIDocument): DocumentIndex {
    const fields = new Map<string, FieldDomain>();
    for (const name of Object.keys(document.state)) {
      const declaration = document.state[name]!;
      const options = this.selectOptions.get(name);
      fields.set(name, options ? { declaration, options: options.values } : { declaration });
    }
    return { fields, derivedNames: Object.keys(document.derived), nodes: collectNodes(document.root) };
  }
}
