/**
 * What every rendered node reads: the validated document, the local state, derived values and the action
 * dispatcher. One provider per rendered document (document-view.tsx).
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
import { createContext, useContext } from 'react';
import type { InvokeController } from './invoke.js';
import type { DocumentOutline } from './outline.js';
import type { ActionTexts } from './texts.js';

export interface RenderContextValue {
  readonly document: UIDocument;
  readonly state: UIState;
  /**
   * Every derived value for `state`, or `null` when one of them cannot be computed (e.g. a division by zero):
   * then each value is computed on its own, so the failure stays with the components that use it.
   */
  readonly derived: Readonly<Record<string, Scalar>> | null;
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

/** A component value in the current state; an expression failure is returned, not thrown (local isolation). */
export function resolveNodeValue(context: RenderContextValue, value: Value): ResolvedValue {
  try {
    const resolved =
      context.derived !== null
        ? resolveValue(value, context.state, context.derived)
        : resolveDocumentValue(context.document, context.state, value);
    return { ok: true, value: resolved as Scalar };
  } catch (error) {
    if (error instanceof UIExpressionError) return { ok: false, error };
    throw error;
  }
}
