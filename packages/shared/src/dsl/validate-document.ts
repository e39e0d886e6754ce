/**
 * `parseDocument`'s validator, whole: the document's own keys, then state, derived, actions and the node tree
 * (the layers below), then every derived field, display value, `set` value and agent prompt evaluated in the
 * default state (seed 002 §3, §9), and the index the helpers use.
 */
import { UIExpressionError } from '../errors/errors.js';
import type { IssuePath } from '../errors/issues.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { UI_DOCUMENT_MODES } from './catalog.js';
import { checkFieldValue, type FieldDomain } from './domain.js';
import { evaluateWith, StepBudget } from './expression.js';
import type { Expr, Scalar, UIDocument, UINode, UIState } from './types.js';
import { ComponentValidator } from './validate-components.js';
import { has, isObject } from './validate-structure.js';

const DOCUMENT_KEYS_V10 = ['version', 'id', 'mode', 'title', 'state', 'derived', 'root'] as const;
const DOCUMENT_KEYS_V11 = [...DOCUMENT_KEYS_V10, 'actions'] as const;

/** What the state, value and action helpers need to know about a validated document, computed once. */
export interface DocumentIndex {
  /** Every declared state field with its domain (Select options included). */
  readonly fields: ReadonlyMap<string, FieldDomain>;
  /** Derived field names in declaration order. */
  readonly derivedNames: readonly string[];
  /** Every node by id. */
  readonly nodes: ReadonlyMap<string, UINode>;
}

export function collectNodes(root: UINode): Map<string, UINode> {
  const nodes = new Map<string, UINode>();
  const stack: UINode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    nodes.set(node.id, node);
    if ('children' in node) for (const child of node.children) stack.push(child);
  }
  return nodes;
}

export class DocumentValidator extends ComponentValidator {
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

  // ——— default evaluation (seed 002 §3) ———

  protected fieldDomain(name: string): FieldDomain {
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

  protected evaluationFailed(path: IssuePath, error: unknown): void {
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
