/**
 * A modal `<dialog>` shown while there is something to ask (a consent question, an install's grant question): opened
 * with `showModal` when `shown` appears, focused on each new one, closed when it goes — and then the focus returns to
 * what had it when the dialog opened (`returnFocus`).
 */
import { type RefObject, useEffect, useRef } from 'react';
import { currentOpener, returnFocus } from './focus.ts';

export function useModalDialog(dialog: RefObject<HTMLDialogElement | null>, shown: unknown): void {
  /** What had the focus when the dialog opened (the control that asked, or wherever the user was). */
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (shown === null || shown === undefined) {
      if (element.open) {
        element.close();
        returnFocus(opener.current);
      }
      opener.current = null;
      return;
    }
    if (!element.open) {
      opener.current = currentOpener();
      element.showModal();
    }
    element.focus();
  }, [dialog, shown]);
}
