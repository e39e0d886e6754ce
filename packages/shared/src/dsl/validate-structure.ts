/**
 * The structural layer of `parseDocument`'s validator: where it is in the input, how it reports, and the checks
 * of one value against its shape (closed key lists, strings, identifiers, enums, numbers, dictionaries, arrays,
 * scalars). Messages never echo unknown key names or rejected values.
 */
import type { IssueCollector, IssuePath, UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { isUIIdentifier } from './catalog.js';
import { isBoundedNumber } from './domain.js';
import { T_BOOLEAN, T_NULL, T_NUMBER, T_STRING, type TypeSet } from './expression-check.js';

/** A JSON object as the validator sees it (not yet validated). */
export type JSONObject = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function has(object: JSONObject, key: string): boolean {
  return Object.hasOwn(object, key);
}

/** How a display value is checked: any scalar, always a number, or a number within [0, max] (Progress). */
export type DisplayRequirement = 'scalar' | 'number' | 'progress';

/** The controls that bind a state field. */
export type ControlType = 'Input' | 'NumberInput' | 'Slider' | 'Select' | 'Checkbox';

/**
 * What a component's `check` in the component table may ask of the validator. Paths are relative to the
 * props object being checked.
 */
export interface PropsChecker {
  report(code: UIIssueCode, message: string, ...keys: (string | number)[]): void;
  checkString(object: JSONObject, key: string, min: number, max: number, what?: string): boolean;
  checkOptionalString(object: JSONObject, key: string, max: number): void;
  checkEnum<T extends string | number>(object: JSONObject, key: string, allowed: readonly T[]): T | undefined;
  checkNumber(object: JSONObject, key: string): number | undefined;
  /** A Value shown to the user: a literal or `{ expr }`, type-checked now and evaluated in the default state. */
  displayValue(props: JSONObject, key: string, requirement: DisplayRequirement, max?: number): void;
  /** `props.action` of a Button or Form: `reset`, `set` of a declared field, or (1.1) `invoke` of an action. */
  validateAction(props: JSONObject): void;
  /** `props.bind` of a control: a declared state field of the control's type; a Select's options its domain. */
  control(type: ControlType, props: JSONObject): void;
  validateTable(props: JSONObject): void;
  validateChartData(props: JSONObject): void;
  /** Returns whether the format is valid. */
  validateResultFormat(props: JSONObject): boolean;
}

export class StructureValidator {
  protected readonly path: (string | number)[] = [];

  constructor(protected readonly issues: IssueCollector) {}

  report(code: UIIssueCode, message: string, ...keys: (string | number)[]): void {
    this.issues.add(keys.length ? [...this.path, ...keys] : this.path.slice(), code, message);
  }

  protected here(...keys: (string | number)[]): IssuePath {
    return [...this.path, ...keys];
  }

  /** Reports missing required and unknown properties of a closed object; unknown names are never echoed. */
  protected checkKeys(object: JSONObject, required: readonly string[], optional: readonly string[]): boolean {
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

  protected expectObject(value: unknown, key: string | number, what: string): value is JSONObject {
    if (isObject(value)) return true;
    this.report('invalid_type', `Expected ${what} (a JSON object).`, key);
    return false;
  }

  checkString(object: JSONObject, key: string, min: number, max: number, what = 'text'): boolean {
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

  checkOptionalString(object: JSONObject, key: string, max: number): void {
    if (has(object, key)) this.checkString(object, key, 0, max);
  }

  protected checkIdentifier(object: JSONObject, key: string | number, what: string): string | undefined {
    const value = object[key as string];
    if (isUIIdentifier(value)) return value;
    this.report(
      'invalid_identifier',
      `${what} must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$ and not be __proto__, prototype or constructor.`,
      key,
    );
    return undefined;
  }

  checkEnum<T extends string | number>(
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

  checkNumber(object: JSONObject, key: string): number | undefined {
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
  protected checkDictionary(
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

  /** Checks an array property's item count. */
  protected checkArray(
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

  protected checkScalar(value: unknown, key: string | number): TypeSet | undefined {
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
}
