/**
 * The component layer of `parseDocument`'s validator (seed 002 §2, §5): the node tree (ids, depth, count,
 * children, `structured_ui` inputs, nested forms), each node's props through the component table, and the
 * cross-component rules of controls (bound types, shared numeric and Select domains).
 */
import type { IssuePath } from '../errors/issues.js';
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { UI_GAPS, UI_RESULT_CURRENCIES, UI_RESULT_STYLES } from './catalog.js';
import {
  isUIComponentType,
  UI_COMPONENT_TABLE,
  UI_COMPONENTS,
  UI_LAYOUT_COMPONENTS,
  type UIComponentType,
} from './components.js';
import { stringMaxLength } from './domain.js';
import type { StateDeclaration } from './types.js';
import { ReferenceValidator } from './validate-references.js';
import { type ControlType, has, isObject, type JSONObject, type PropsChecker } from './validate-structure.js';

interface ControlUse {
  readonly type: ControlType;
  readonly bind: string;
  readonly props: JSONObject;
  readonly path: IssuePath;
}

export class ComponentValidator extends ReferenceValidator implements PropsChecker {
  protected readonly nodeIds = new Set<string>();
  protected componentCount = 0;
  protected readonly controls: ControlUse[] = [];
  protected readonly selectOptions = new Map<string, { values: Set<string>; path: IssuePath }>();

  protected validateNode(input: unknown, depth: number, insideForm: boolean): void {
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
    if (!isUIComponentType(type)) {
      this.report(
        has(input, 'type') ? 'unknown_component' : 'missing_property',
        has(input, 'type')
          ? 'Unknown component type (names are case-sensitive).'
          : 'This property is required.',
        'type',
      );
      return;
    }
    const componentType = type;
    const isLayout = UI_COMPONENT_TABLE[componentType].children === 'required';
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
    if (this.mode === 'structured_ui' && UI_COMPONENT_TABLE[componentType].input) {
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

  protected validateProps(type: UIComponentType, props: JSONObject): void {
    const { required, optional } = UI_COMPONENTS[type];
    this.checkKeys(props, required, optional);
    if (has(props, 'gap')) this.checkEnum(props, 'gap', UI_GAPS);
    UI_COMPONENT_TABLE[type].check(props, this);
  }

  validateTable(props: JSONObject): void {
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

  validateChartData(props: JSONObject): void {
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
  validateResultFormat(props: JSONObject): boolean {
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

  control(type: ControlType, props: JSONObject): void {
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

  protected validateSelectOptions(props: JSONObject, bind: string, declaration: StateDeclaration): void {
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
  protected checkControls(): void {
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
}
