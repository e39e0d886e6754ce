/**
 * Keyboard focus in a Surface, as the containment prelude (containment.ts) guards it: focus is the Surface's only
 * after a user gesture in the frame (a pointer down) or when the host reports that the user tabbed in; until then
 * `focus()` does nothing, and should focus arrive another way, key and input events are stopped before any
 * Surface code sees them, the focused element is blurred, and the host is told to take focus back.
 *
 * Like every part of the prelude, `guardSurfaceFocus` is one self-contained function — no imports, no outer
 * variables — whose source text the host injects (documents.ts).
 */
import type { FrameWindow } from './containment-config.js';
import type { FrameIntrinsics } from './containment-intrinsics.js';

/** What the rest of the prelude keeps of the focus guard. */
export interface SurfaceFocus {
  /** Whether the Surface has focus of its own now (a gesture in the frame, or the host's grant). */
  hasEarned(): boolean;
  /** The host's grant after the user tabbed in: focus is earned, and goes back to the element denied it last. */
  grant(): void;
}

export function guardSurfaceFocus(
  global: FrameWindow,
  intrinsics: FrameIntrinsics,
  reportFocus: () => void,
): SurfaceFocus {
  const {
    uncurry,
    defineProperty,
    addListener,
    preventDefault,
    stopImmediatePropagation,
    targetOf,
    isConnectedOf,
    blurHTML,
    focusHTML,
    blurSVG,
  } = intrinsics;
  let earned = false;
  let reportedFocus = false;
  let denied: unknown = null;
  const earn = (event: Event) => {
    if (event.isTrusted) earned = true;
  };
  for (const type of ['pointerdown', 'mousedown', 'touchstart']) addListener(global, type, earn, true);
  addListener(
    global,
    'blur',
    (event: Event) => {
      if (targetOf(event) !== global) return;
      earned = false;
      reportedFocus = false;
    },
    true,
  );
  addListener(
    global,
    'focus',
    (event: Event) => {
      if (earned || !event.isTrusted) return;
      const target = targetOf(event);
      if (target !== global) {
        // The built-in blur checks the element's kind itself; no instanceof a Surface could redefine.
        try {
          blurHTML(target);
          denied = target;
        } catch {
          try {
            blurSVG(target);
          } catch {
            // Not an element: nothing to blur.
          }
        }
      }
      if (!reportedFocus) {
        reportedFocus = true;
        reportFocus();
      }
    },
    true,
  );
  // Moving focus by script needs earned focus; otherwise the call does nothing (the listeners above are the
  // backstop for the ways in that are not a method call).
  // (Window's operations live on the window object itself, the elements' on their prototypes.)
  for (const target of [
    global.HTMLElement?.prototype,
    global.SVGElement?.prototype,
    global.MathMLElement?.prototype,
    global,
  ]) {
    const focus = target?.focus;
    if (typeof focus !== 'function') continue;
    const callFocus = uncurry(focus);
    defineProperty(target, 'focus', {
      value: function focusWhenEarned(this: unknown, options?: unknown) {
        if (earned) callFocus(this, options);
      },
    });
  }
  const swallow = (event: Event) => {
    if (earned) return;
    stopImmediatePropagation(event);
    preventDefault(event);
  };
  for (const type of [
    'keydown',
    'keypress',
    'keyup',
    'beforeinput',
    'input',
    'textInput',
    'compositionstart',
    'compositionupdate',
    'compositionend',
    'paste',
    'cut',
    'copy',
  ])
    addListener(global, type, swallow, true);

  return {
    hasEarned: () => earned,
    grant: () => {
      earned = true;
      const element = denied;
      denied = null;
      if (element !== null && isConnectedOf(element)) {
        try {
          focusHTML(element);
        } catch {
          // Not an HTML element: focus stays on the document.
        }
      }
    },
  };
}
