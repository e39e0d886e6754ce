/**
 * The reference layer of `parseDocument`'s validator (seed 002 §3, §4, §6, §11): state declarations, derived
 * expressions and their static types (cycles included), dynamic values, the actions dictionary, and the
 * references a `set` or `invoke` action makes. What must be evaluated in the default state is collected here
 * for validate-document.ts.
 */
import type { IssueCollector, IssuePath } from '../errors/issues.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import type { UIDocumentMode } from './catalog.js';
import {
  checkExpression,
  describeTypeSet,
  type ExpressionCheckContext,
  T_BOOLEAN,
  T_NUMBER,
  T_STRING,
  type TypeSet,
} from './expression-check.js';
import type { StateDeclaration } from './types.js';
import {
  type DisplayRequirement,
  has,
  isObject,
  type JSONObject,
  StructureValidator,
} from './validate-structure.js';

export const TYPE_BY_STATE = { number: T_NUMBER, string: T_STRING, boolean: T_BOOLEAN } as const;

export interface DisplayValue {
  readonly value: unknown;
  readonly path: IssuePath;
  readonly requirement: DisplayRequirement;
  readonly max?: number;
}

export interface SetActionUse {
  readonly key: string;
  readonly value: unknown;
  readonly path: IssuePath;
}

export class ReferenceValidator extends StructureValidator {
  protected version: '1.0' | '1.1' = '1.0';
  protected mode: UIDocumentMode = 'interactive_ui';
  protected readonly counter = { nodes: 0 };
  protected readonly stateDeclarations = new Map<string, StateDeclaration>();
  protected readonly invalidState = new Set<string>();
  protected derivedInput: JSONObject = {};
  protected readonly derivedStatus = new Map<string, 'visiting' | 'failed' | TypeSet>();
  protected readonly actionIds = new Set<string>();
  protected readonly displayValues: DisplayValue[] = [];
  protected readonly setActions: SetActionUse[] = [];
  protected readonly agentPrompts: { value: unknown; path: IssuePath }[] = [];
  protected readonly expressionContext: ExpressionCheckContext;

  constructor(issues: IssueCollector) {
    super(issues);
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

  // ——— state (seed 002 §4) ———

  protected validateState(document: JSONObject): void {
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

  protected validateStateDeclaration(input: unknown): StateDeclaration | undefined {
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

  protected validateDerived(document: JSONObject): void {
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
  protected derivedType(name: string, referencePath: IssuePath | undefined): TypeSet | undefined {
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
  protected checkValue(object: JSONObject, key: string): TypeSet | undefined {
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

  protected requireType(actual: TypeSet | undefined, expected: TypeSet, key: string, what: string): boolean {
    if (actual === undefined) return false;
    if ((actual & ~expected) === 0) return true;
    this.report(
      'type_mismatch',
      `${what} must always be a ${describeTypeSet(expected)}; this is ${describeTypeSet(actual)}.`,
      key,
    );
    return false;
  }

  displayValue(props: JSONObject, key: string, requirement: DisplayRequirement, max?: number): void {
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

  protected validateActions(document: JSONObject): void {
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

  protected validateActionDefinition(input: unknown): void {
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
  validateAction(props: JSONObject): void {
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
}
