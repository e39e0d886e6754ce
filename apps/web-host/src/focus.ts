/**
 * Where the focus goes when something that held it goes away: a dialog, an overlay, the workspace (WAI-ARIA dialog
 * pattern). Documented in the README ("Accessibility").
 */

/**
 * How long after a question appears (a consent dialog, the agent-link question, an install's grant question) its
 * buttons start to accept presses: a double click meant for what was there before never answers it.
 */
export const ARMING_DELAY_MS = 500;

/** The element that last had the focus: a control that disabled itself when pressed has dropped it to the page. */
let lastFocused: Element | null = null;
if (typeof document !== 'undefined')
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof Element) lastFocused = event.target;
  });

/**
 * What opens a dialog or the workspace now, for `returnFocus`: the element with the focus, or the one that had it
 * last when the focus fell to the page (the button pressed disabled itself while it works).
 */
export function currentOpener(): Element | null {
  const active = document.activeElement;
  return active !== null && active !== document.body ? active : lastFocused;
}

/** Whether `element` can take the focus now: in the page, shown, not disabled. */
function focusable(element: Element | null): element is HTMLElement {
  if (!(element instanceof HTMLElement) || !element.isConnected || element === document.body) return false;
  if ((element as HTMLButtonElement).disabled === true || element.closest('[inert]') !== null) return false;
  return element.getClientRects().length > 0;
}

/**
 * Moves the focus back to `opener` — what had it when the dialog or the workspace opened, the control that asked.
 * When that control is gone or disabled by then (an interface that re-rendered, a button busy with the answer), to
 * the conversation entry that held it; when there is no opener (`currentOpener` found none) or none of those can
 * take it, to the message box, or else the conversation's heading. A control that is only busy gets the focus
 * back once it can take it again (within about a second), unless the user has moved it meanwhile.
 */
export function returnFocus(opener: Element | null): void {
  const place = (): HTMLElement | null => {
    if (focusable(opener)) return opener;
    const entry = opener?.isConnected ? opener.closest<HTMLElement>('.host__entry') : null;
    if (focusable(entry)) return entry;
    const message = document.getElementById('chat-message');
    if (focusable(message)) return message;
    return document.getElementById('conversation-title');
  };
  let fallback = place();
  fallback?.focus();
  let frames = 0;
  const retry = () => {
    const active = document.activeElement;
    const untouched = active === null || active === document.body || active === fallback;
    if (!untouched || fallback === opener) return;
    if (focusable(opener)) {
      opener.focus();
      return;
    }
    if (active === null || active === document.body) {
      fallback = place();
      fallback?.focus();
    }
    if (++frames < 60 && opener?.isConnected === true) requestAnimationFrame(retry);
  };
  requestAnimationFrame(retry);
}

/**
 * Keeps Tab inside a modal dialog: past its last control back to the first, and Shift+Tab from the first (or the
 * dialog itself) to the last. A modal dialog's page is inert, but the browser would move the focus out to its own
 * toolbar.
 */
export function keepTabInside(
  event: { readonly key: string; readonly shiftKey: boolean; preventDefault(): void },
  dialog: HTMLElement | null,
): void {
  if (event.key !== 'Tab' || dialog === null) return;
  const controls = [
    ...dialog.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex="0"]'),
  ].filter((control) => !(control as HTMLButtonElement).disabled && control.getClientRects().length > 0);
  const first = controls[0];
  const last = controls.at(-1);
  if (first === undefined || last === undefined) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
