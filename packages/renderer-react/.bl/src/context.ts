/**
 * What every rendered node reads: the validated document, the local state, derived values and the action
 * dispatcher. One provider per rendered document (document-view.tsx).
 *
 * The state and derived values are not in the context value itself: a context change re-renders every node that
 * reads it, and a keystroke changes one field. They sit in a small store (`ValueSource`) the context holds; a node
 * subscribes to what it shows (`useResolvedValue`, `useFieldValue`) and renders again only when that changed.
 */
import {
  evaluateDerived,
  resolveDocumentValue,
  resolveValue,
  type Scalar,
  type UIDocument,
  UIExpressionError,
  type UILocalAction,
  type UIState,
  type Value,
} from '@lineup/shared';
import { createContext, useContext, useRef, useSyncExternalStore } from 'react';
import type { InvokeController } from './invoke.js';
import type { DocumentOutline } from './outline.js';
import type { ActionTexts } from './texts.js';

/** The values of one render: the document, its local state and the derived values of that state. */
export interface ValueSnapshot {
  readonly document: UIDocument;
  readonly state: UIState;
  /**
   * Every derived value for `state`, or `null` when one of them cannot be computed (e.g. a division by zero):
   * then each value is computed on its own, so the failure stays with the components that use it.
   */
  readonly derived: Readonly<Record<string, Scalar>> | null;
}

/** The current values and a way to hear of a new snapshot (the `useSyncExternalStore` contract). */
export interface ValueSource {
  readonly current: () => ValueSnapshot;
  readonly subscribe: (listener: () => void) => () => void;
}

/** A `ValueSource` its document view owns: it publishes each render's snapshot and notifies after the commit. */
export interface ValueStore extends ValueSource {
  /** Sets the snapshot the rest of this render reads, without notifying (a render must not update others). */
  readonly publish: (snapshot: ValueSnapshot) => void;
  /** Tells subscribers the snapshot changed; each renders again only if what it reads did. */
  readonly notify: () => void;
}

export function createValueStore(initial: ValueSnapshot): ValueStore {
  let snapshot = initial;
  const listeners = new Set<() => void>();
  return {
    current: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(next) {
      snapshot = next;
    },
    notify() {
      for (const listener of listeners) listener();
    },
  };
}

export interface RenderContextValue {
  readonly document: UIDocument;
  /** The local state and derived values; read them with `useResolvedValue` / `useFieldValue`. */
  readonly values: ValueSource;
  readonly locale: string | undefined;
  /** The renderer's own texts, in the language of `locale`. */
  readonly texts: ActionTexts;
  /** The heading level of every Heading and Markdown node (outline.ts). */
  readonly outline: DocumentOutline;
  /** Writes one field through `updateState`; returns the rejection to show, or `null` when it was stored. */
  readonly setField: (key: string, value: unknown) => Error | null;
  /** Runs a `set` / `reset` through `dispatchLocalAction`; returns the rejection to show, or `null`. */
  readonly runLocalAction: (action: UILocalAction) => Error | null;
  readonly invoke: InvokeController;
}

export const RenderContext = createContext<RenderContextValue | null>(null);

export function useRenderContext(): RenderContextValue {
  const context = useContext(RenderContext);
  if (context === null) throw new Error('A LineUp node rendered outside IntelligentUIView.');
  return context;
}

/** Derived values of one state, or `null` when any fails (see RenderContextValue.derived). */
export function deriveAll(document: UIDocument, state: UIState): Readonly<Record<string, Scalar>> | null {
  try {
    return evaluateDerived(document, state) as Readonly<Record<string, Scalar>>;
  } catch (error) {
    if (error instanceof UIExpressionError) return null;
    throw error;
  }
}

export type ResolvedValue =
  | { readonly ok: true; readonly value: Scalar }
  | { readonly ok: false; readonly error: UIExpressionError };

/** A component value in `values`; an expression failure is returned, not thrown (local isolation). */
export function resolveNodeValue(values: ValueSnapshot, value: Value): ResolvedValue {
  try {
    const resolved =
      values.derived !== null
        ? resolveValue(value, values.state, values.derived)
        : resolveDocumentValue(values.document, values.state, value);
    return { ok: true, value: resolved as Scalar };
  } catch (error) {
    if (error instanceof UIExpressionError) return { ok: false, error };
    throw error;
  }
}

/** Two resolutions show the same thing: the same value, or failures with the same message. */
export function sameResolved(a: ResolvedValue, b: ResolvedValue): boolean {
  if (a.ok && b.ok) return Object.is(a.value, b.value);
  return !a.ok && !b.ok && a.error.message === b.error.message;
}

/**
 * What `select` picks from the current values, re-rendering the component only when the pick changes (`equal`
 * says when two picks are the same; the earlier one is then kept, so nothing downstream sees a new object).
 */
export function useValues<T>(
  select: (values: ValueSnapshot) => T,
  equal: (a: T, b: T) => boolean = Object.is,
): T {
  const { values } = useRenderContext();
  const last = useRef<{ snapshot: ValueSnapshot; select: unknown; picked: T } | null>(null);
  const read = (): T => {
    const snapshot = values.current();
    const previous = last.current;
    if (previous !== null && previous.snapshot === snapshot && previous.select === select)
      return previous.picked;
    const next = select(snapshot);
    const picked = previous !== null && equal(previous.picked, next) ? previous.picked : next;
    last.current = { snapshot, select, picked };
    return picked;
  };
  return useSyncExternalStore(values.subscribe, read, read);
}

/** A component value in the current state, for a component that renders again only when it changes. */
export function useResolvedValue(value: Value): ResolvedValue {
  return useValues((values) => resolveNodeValue(values, value), sameResolved);
}

/** The value of state field `key` (`undefined` when the document does not declare it). */
export function useFieldValue(key: string): unknown {
  return useValues((values) => values.state[key]);
}
