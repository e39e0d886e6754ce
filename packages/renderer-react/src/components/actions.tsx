/**
 * Button and Form (seed 002 §5–§6, §10–§11). A click (or a Form submit, with `preventDefault`) dispatches the
 * one declared action: `set` / `reset` run locally; `invoke` goes to the host through `onInvoke` and shows the
 * receipt. Rendering never dispatches anything.
 */
import type { UIAction, UIActionReceipt, UINodeOf } from '@lineup/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useRenderContext } from '../context.js';
import { errorText } from '../errors.js';
import type { InvokeProgress, InvokeUnavailableReason } from '../invoke.js';
import { NodeChildren } from './layout.js';

const UNAVAILABLE_TEXT: Readonly<Record<Exclude<InvokeUnavailableReason, null>, string>> = {
  no_handler: 'This host does not run actions.',
  streaming: 'Available once the interface has finished loading.',
  stream_ended: 'This interface did not finish loading; its actions are not available.',
};

const RECEIPT_TEXT: Readonly<Record<UIActionReceipt['status'], string>> = {
  queued: 'Queued',
  awaiting_confirmation: 'Waiting for confirmation',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  unknown: 'Outcome unknown; it will not be retried automatically',
  accepted: 'Sent to the agent',
};

function progressText(progress: InvokeProgress): string {
  switch (progress.phase) {
    case 'submitting':
      return 'Submitting…';
    case 'receipt': {
      const { status, message } = progress.receipt;
      return message === undefined ? RECEIPT_TEXT[status] : `${RECEIPT_TEXT[status]}: ${message}`;
    }
    case 'conflict':
      return 'Done. You changed values after the click, so the result was not applied; your values were kept.';
    case 'error':
      return progress.message;
  }
}

interface ActionHandle {
  readonly run: () => void;
  readonly disabled: boolean;
  readonly status: ReactNode;
}

function useAction(action: UIAction): ActionHandle {
  const context = useRenderContext();
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
          <span className="lu-action-status lu-action-error" role="alert">
            {localError}
          </span>
        ),
    };
  }
  const unavailable = context.invoke.unavailable;
  const busy =
    progress !== null &&
    (progress.phase === 'submitting' || (progress.phase === 'receipt' && !progress.final));
  const text =
    progress !== null ? progressText(progress) : unavailable !== null ? UNAVAILABLE_TEXT[unavailable] : null;
  const failed =
    progress?.phase === 'error' ||
    (progress?.phase === 'receipt' && ['failed', 'unknown'].includes(progress.receipt.status));
  return {
    run: () => {
      setProgress({ phase: 'submitting' });
      context.invoke.start(action.actionId, setProgress);
    },
    disabled: unavailable !== null || busy,
    status: (
      <span
        className={`lu-action-status${failed ? ' lu-action-error' : ''}${progress?.phase === 'conflict' ? ' lu-action-conflict' : ''}`}
        role="status"
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
        onClick={handle.run}
      >
        {label}
      </button>
      {handle.status}
    </div>
  );
}

export function FormView({ node }: { readonly node: UINodeOf<'Form'> }) {
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
      <NodeChildren nodes={node.children} />
      <div className="lu-action">
        <button type="submit" className="lu-button lu-button-primary" disabled={handle.disabled}>
          {submitLabel}
        </button>
        {handle.status}
      </div>
    </form>
  );
}
