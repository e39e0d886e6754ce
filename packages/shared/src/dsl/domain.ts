/**
 * The value domain of each state field (seed 002 §4): type, range, step grid, string length and — when a
 * Select binds the field — the option set. One check serves every writer: initial values, user input, `set`
 * actions, `resultMap` and `restoreState`.
 */

import type { UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import type { StateDeclaration, StateValue } from './value-types.js';

/** The domain of one state field: its declaration plus the option set of the Selects bound to it. */
export interface FieldDomain {
  readonly declaration: StateDeclaration;
  /** Present when at least one Select binds the field: the only values any writer may store. */
  readonly options?: ReadonlySet<string>;
}

export interface DomainViolation {
  readonly code: UIIssueCode;
  readonly message: string;
}

/**
 * Tolerance of the step grid (seed 002 §4: "允许与浮点表示有关的小量容差"): a value may miss the nearest grid
 * point by a billionth of the step (so 0.1 + 0.2 lands on a 0.1 grid, and repeated additions stay on it), or by
 * two units in the last place of its own magnitude, where doubles cannot do better. Never by more: step 1
 * rejects 500000000.5.
 */
const STEP_TOLERANCE = 1e-9;

/** Whether `value` lies on the grid `origin + k × step` (k an integer), within float tolerance. */
export function isOnStepGrid(value: number, step: number, origin: number): boolean {
  const nearest = origin + Math.round((value - origin) / step) * step;
  const tolerance = Math.max(
    STEP_TOLERANCE * step,
    2 * Number.EPSILON * Math.max(Math.abs(value), Math.abs(nearest)),
  );
  return Math.abs(value - nearest) <= tolerance;
}

export function isBoundedNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= UI_LIMITS.maxAbsNumber;
}

/** The effective `maxLength` of a string field (default 4,096). */
export function stringMaxLength(declaration: StateDeclaration): number {
  return declaration.type === 'string' && declaration.maxLength !== undefined
    ? declaration.maxLength
    : UI_LIMITS.maxStringLength;
}

/**
 * Checks `value` against a field's domain; returns undefined when it is allowed. Messages describe what is
 * allowed and never echo the value.
 */
export function checkFieldValue(domain: FieldDomain, value: unknown): DomainViolation | undefined {
  const { declaration } = domain;
  switch (declaration.type) {
    case 'number': {
      if (typeof value !== 'number')
        return { code: 'type_mismatch', message: 'Expected a number for this field.' };
      if (!isBoundedNumber(value)) {
        return {
          code: 'number_out_of_range',
          message: 'Numbers must be finite with an absolute value ≤ 1e15.',
        };
      }
      if (declaration.min !== undefined && value < declaration.min) {
        return {
          code: 'number_out_of_range',
          message: `The value is below the field's minimum ${declaration.min}.`,
        };
      }
      if (declaration.max !== undefined && value > declaration.max) {
        return {
          code: 'number_out_of_range',
          message: `The value is above the field's maximum ${declaration.max}.`,
        };
      }
      if (declaration.step !== undefined && !isOnStepGrid(value, declaration.step, declaration.min ?? 0)) {
        return {
          code: 'step_mismatch',
          message: `The value must be ${declaration.min ?? 0} plus a whole multiple of the step ${declaration.step}.`,
        };
      }
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string')
        return { code: 'type_mismatch', message: 'Expected a string for this field.' };
      const maxLength = stringMaxLength(declaration);
      if (value.length > maxLength) {
        return {
          code: 'string_too_long',
          message: `The text is longer than the field's maxLength ${maxLength}.`,
        };
      }
      if (domain.options && !domain.options.has(value)) {
        return {
          code: 'select_domain_conflict',
          message: 'A Select binds this field: only one of its option values may be stored.',
        };
      }
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean'
        ? undefined
        : { code: 'type_mismatch', message: 'Expected a boolean for this field.' };
  }
}

export function isStateValue(value: unknown): value is StateValue {
  return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean';
}
