/**
 * What the workspace's MiniApp frames depend on in the host page: whether the page is being left, and whether a
 * frame can move without reloading.
 */

/**
 * Whether this page is being left (reloaded or navigated away): the top document's `beforeunload` runs before its
 * frames', so a navigation a MiniApp page's containment reports after it is the page's own unload. The web host
 * never cancels an unload; a page restored from the back/forward cache is not being left.
 */
let leaving = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => {
    leaving = true;
  });
  window.addEventListener('pageshow', () => {
    leaving = false;
  });
}

/**
 * What to tell the user when the containment removed `name`'s page — it tried to leave its document, or flooded the
 * host — after which the app closes; null for anything else, and while this page itself is being left (its frames
 * unload with it, which the containment reports as their navigation: the app comes back with the page).
 */
export function removedPageProblem(name: string, rejection: { readonly reason: string }): string | null {
  if (leaving) return null;
  if (rejection.reason === 'navigated') return `${name} tried to leave its page and was closed.`;
  if (rejection.reason === 'flooded') return `${name} flooded the host with messages and was closed.`;
  return null;
}

/**
 * Moves `frame` to the end of `container` without reloading it (`Element.moveBefore`), and says whether it did: a
 * re-inserted frame reloads, and its page's channel is bound to the document that loaded first. False where the
 * browser cannot move frames or the frame is no longer in the page.
 */
export function moveFrame(container: HTMLElement, frame: HTMLIFrameElement): boolean {
  const movable = container as HTMLElement & { moveBefore?: (node: Node, child: Node | null) => void };
  if (typeof movable.moveBefore !== 'function' || !frame.isConnected) return false;
  movable.moveBefore(frame, null);
  return true;
}
