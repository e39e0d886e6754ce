/**
 * An MCP App view shown full screen (`ui/request-display-mode` with `fullscreen`): its frame moves — without
 * reloading, so the view keeps its document and state — into a modal dialog that fills the window, with the host's
 * bar (who it is from, "Exit full screen") above it. The view hears `displayMode: "fullscreen"` and the room it has;
 * its own size requests wait until it is inline again.
 *
 * A view gets full screen only while the user is in it (its frame has focus: the user clicked or tabbed there); asked
 * at any other time, it stays inline. It leaves full screen by the bar's button, Escape — in the host's dialog (its `cancel`), or in the view's frame,
 * whose containment tells the host of every Escape whatever the view does with it — or the view asking for `inline`;
 * then the frame moves back, the view hears `inline` and its room there, and focus returns to the view's card in the
 * conversation. Picture-in-picture is not offered (`availableDisplayModes` is `inline` and `fullscreen`): asked for
 * it, the view keeps the mode it has.
 */
import type { McpViewSession } from './mcp-views.ts';
import { MAX_VIEW_HEIGHT } from './mcp-views.ts';

/** How long a view's request for full screen waits for its frame to have focus (ms). */
const USER_IN_WAIT_MS = 500;

/** Where the view goes and comes back to. */
export interface FullscreenPlaces {
  readonly dialog: HTMLDialogElement;
  /** The dialog's room for the frame. */
  readonly fullSlot: HTMLElement;
  /** The frame's place in the conversation. */
  readonly inlineSlot: HTMLElement;
  /** What takes focus when the view is inline again (its card). */
  readonly card: HTMLElement;
}

/** Sends without waiting: a closed view's bridge may refuse, which changes nothing here. */
function quietly(sent: Promise<void> | void): void {
  if (sent !== undefined) sent.catch(() => {});
}

/** The display mode of one view; `onChange` hears each change (to render the dialog's bar). */
export class ViewFullscreen {
  readonly #session: McpViewSession;
  readonly #places: () => FullscreenPlaces | null;
  readonly #onChange: (fullscreen: boolean) => void;
  readonly #onCancel = (event: Event) => {
    event.preventDefault();
    this.exit();
  };
  readonly #onResize = () => this.#tell('fullscreen');

  constructor(
    session: McpViewSession,
    places: () => FullscreenPlaces | null,
    onChange: (fullscreen: boolean) => void,
  ) {
    this.#session = session;
    this.#places = places;
    this.#onChange = onChange;
  }

  get active(): boolean {
    return this.#session.fullscreen;
  }

  /**
   * The view asks for `mode`: the mode it has after. Full screen only while the user is in the view (its frame has
   * focus: a click or a Tab put it there): a view cannot take the window by itself.
   */
  async request(mode: string): Promise<'inline' | 'fullscreen'> {
    if (mode === 'fullscreen' && (await this.#userIn())) this.enter();
    else if (mode === 'inline') this.exit();
    return this.active ? 'fullscreen' : 'inline';
  }

  /**
   * Whether the view's frame has focus. A click in the frame moves focus in another process: the view's request can
   * come before this page sees the frame focused, so it looks again for at most `USER_IN_WAIT_MS`.
   */
  async #userIn(): Promise<boolean> {
    const frame = this.#session.handle.frame;
    const until = performance.now() + USER_IN_WAIT_MS;
    while (document.activeElement !== frame) {
      if (performance.now() >= until || this.#session.closed) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return true;
  }

  enter(): void {
    const places = this.#places();
    const session = this.#session;
    if (this.active || places === null || session.closed) return;
    places.dialog.showModal();
    places.dialog.addEventListener('cancel', this.#onCancel);
    window.addEventListener('resize', this.#onResize);
    session.fullscreen = true;
    session.handle.moveTo(places.fullSlot);
    session.handle.frame.style.height = '100%';
    this.#onChange(true);
    this.#tell('fullscreen');
  }

  exit(): void {
    const places = this.#places();
    const session = this.#session;
    if (!this.active) return;
    session.fullscreen = false;
    window.removeEventListener('resize', this.#onResize);
    if (places !== null) {
      places.dialog.removeEventListener('cancel', this.#onCancel);
      if (!session.closed) session.handle.moveTo(places.inlineSlot);
      if (places.dialog.open) places.dialog.close();
    }
    if (!session.closed) {
      session.handle.frame.style.height = `${Math.min(session.height ?? 240, MAX_VIEW_HEIGHT)}px`;
      this.#tell('inline');
    }
    this.#onChange(false);
    places?.card.focus();
  }

  /** The view hears its mode and the room it has there. */
  #tell(mode: 'inline' | 'fullscreen'): void {
    const places = this.#places();
    if (places === null || this.#session.closed) return;
    const slot = mode === 'fullscreen' ? places.fullSlot : places.inlineSlot;
    const width = Math.max(1, Math.round(slot.clientWidth));
    quietly(
      this.#session.bridge.sendHostContextChange({
        displayMode: mode,
        containerDimensions:
          mode === 'fullscreen'
            ? { width, height: Math.max(1, Math.round(slot.clientHeight)) }
            : { width, maxHeight: MAX_VIEW_HEIGHT },
      } as never),
    );
  }
}
