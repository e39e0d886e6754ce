/**
 * Button and Form (seed 002 §5–§6, §10–§11). A click (or a Form submit, with `preventDefault`) dispatches the
 * one declared action: `set` / `reset` run locally; `invoke` goes to the host through `onInvoke` and shows the
 * receipt. Rendering never dispatches anything.
 */
import type { UIAction, UINodeOf } from '@lineup/shared';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useRenderContext } from '../context.js';
import { errorText } from '../errors.js';
import { ACTIVE_RECEIPT_STATUSES, type InvokeProgress } from '../invoke.js';
import type { ActionTexts } from '../texts.js';

function progressText(progress: InvokeProgress, texts: ActionTexts): string {
  switch (progress.phase) {
    case 'submitting':
      return texts.submitting;
    case 'receipt': {
      const { status, message } = progress.receipt;
      return message === undefined ? texts.receipt[status] : `${texts.receipt[status]}: ${message}`;
    }
    case 'conflict':
      return texts.conflict;
    case 'error':
      return progress.message;
  }
}

interface ActionHandle {
  readonly run: () => void;
  readonly disabled: boolean;
  readonly status: ReactNode;
  /** The status line's id while it says something: the button's `aria-describedby` (why it is disabled, …). */
  readonly describedBy: string | undefined;
}

function useAction(action: UIAction): ActionHandle {
  const context = useRenderContext();
  const statusId = useId();
  const [progress, setProgress] = useState<InvokeProgress | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  if (action.type !== 'invoke') {
    return {
      run: () => {
        const error = context.runLocalAction(action);
        setLocalError(error === null ? null : errorText(error));
      },
      disabled: false,
      status:
        localError === null ? null : (
          <span className="lu-action-status lu-action-error" role="alert" id={statusId}>
            {localError}
          </span>
        ),
      describedBy: localError === null ? undefined : statusId,
    };
  }
  const texts = context.texts;
  const unavailable = context.invoke.unavailable;
  const busy =
    progress !== null &&
    (progress.phase === 'submitting' || (progress.phase === 'receipt' && !progress.final));
  // No click in this view: the latest receipt the host kept (after a reload it is shown, never run again).
  const kept = progress === null ? context.invoke.receipt(action.actionId) : undefined;
  const shown: InvokeProgress | null =
    progress ??
    (kept === undefined
      ? null
      : { phase: 'receipt', receipt: kept, final: !ACTIVE_RECEIPT_STATUSES.has(kept.status) });
  const text =
    shown !== null
      ? `${kept !== undefined ? `${texts.earlier}: ` : ''}${progressText(shown, texts)}`
      : unavailable !== null
        ? texts.unavailable[unavailable]
        : null;
  const failed =
    shown?.phase === 'error' ||
    (shown?.phase === 'receipt' && ['failed', 'unknown'].includes(shown.receipt.status));
  return {
    run: () => {
      setProgress({ phase: 'submitting' });
      context.invoke.start(action.actionId, setProgress);
    },
    disabled: unavailable !== null || busy,
    describedBy: text === null ? undefined : statusId,
    status: (
      <span
        id={statusId}
        lang={texts.lang}
        className={`lu-action-status${failed ? ' lu-action-error' : ''}${progress?.phase === 'conflict' ? ' lu-action-conflict' : ''}`}
        role="status"
        data-status={shown?.phase === 'receipt' ? shown.receipt.status : shown?.phase}
      >
        {text}
      </span>
    ),
  };
}

export function ButtonView({ node }: { readonly node: UINodeOf<'Button'> }) {
  const { label, action, variant } = node.props;
  const handle = useAction(action);
  return (
    <div className="lu-action">
      <button
        type="button"
        className={`lu-button lu-button-${variant ?? 'secondary'}`}
        disabled={handle.disabled}
        aria-describedby={handle.describedBy}
        onClick={handle.run}
      >
        {label}
      </button>
      {handle.status}
    </div>
  );
}

/** A Form: its fields come rendered by `NodeView` as `children`, keyed by node id. */
export function FormView({
  node,
  children,
}: {
  readonly node: UINodeOf<'Form'>;
  readonly children?: ReactNode;
}) {
  const { submitLabel, action, gap } = node.props;
  const handle = useAction(action);
  return (
    <form
      className={`lu-form lu-gap-${gap ?? 'md'}`}
      noValidate
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        // seed 002 §6: no HTML navigation; inputs already wrote the shared state live.
        event.preventDefault();
        if (!handle.disabled) handle.run();
      }}
    >
      {children}
      <div className="lu-action">
        <button
          type="submit"
          className="lu-button lu-button-primary"
          disabled={handle.disabled}
          aria-describedby={handle.describedBy}
        >
          {submitLabel}
        </button>
        {handle.status}
      </div>
    </form>
  );
}
