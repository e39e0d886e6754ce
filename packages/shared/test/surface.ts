/**
 * The Surface channel's test messages (`bridge/surface.*.test.ts`, `lineup.surface.v1`, seed 000 §2.4,
 * §4.1–§4.3): builders of one valid message per type, and the rejection row (a rule, asserting the issue's
 * code and path).
 */
import { SURFACE_NAMESPACE } from '../src/bridge/surface.js';
import type { UIIssueCode } from '../src/errors/issues.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
export type J = any;

/** The code for "present, but of the wrong type" (missing properties are `missing_property`). */
export const WRONG_TYPE: UIIssueCode = 'invalid_type';

export const INSTANCE = 'weather.dashboard.01';

export const ready = (): J => ({ namespace: SURFACE_NAMESPACE, type: 'ready' });
export const start = (overrides: J = {}): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'start',
  instance_id: INSTANCE,
  html: '<main></main>',
  css: 'main { padding: 8px }',
  js: 'LineUpSurface.event("refresh")',
  ...overrides,
});
export const event = (overrides: J = {}): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'event',
  instance_id: INSTANCE,
  event: 'refresh',
  data: { unit: 'c' },
  ...overrides,
});
export const resize = (height: unknown): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'resize',
  instance_id: INSTANCE,
  height,
});
export const state = (value: unknown = { city: '北京', temperature: 22 }): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'state',
  instance_id: INSTANCE,
  state: value,
});

export const violation = (kind: unknown): J => ({
  namespace: SURFACE_NAMESPACE,
  type: 'violation',
  instance_id: INSTANCE,
  kind,
});
export const focus = (): J => ({ namespace: SURFACE_NAMESPACE, type: 'focus', instance_id: INSTANCE });

export interface Row {
  readonly rule: string;
  readonly input: () => unknown;
  readonly code: UIIssueCode;
  readonly path: string;
}
