/**
 * A Surface frame and its channel, before and after it holds a Surface: the host's frame with the wrapper
 * document (documents.ts) and the one `ready` it accepts from the content frame inside it.
 *
 * A frame's documents do not depend on the bundle, so one can load before it is needed: each document keeps
 * one spare frame, hidden, and `mountSurface` moves it into place with `Element.moveBefore` (which keeps a
 * frame's documents; a plain move would reload them) and gives it the bundle over the port. Where
 * `moveBefore` is missing, every mount loads a frame of its own.
 */
import type { UIIssue } from '@lineup/shared';
import { LineUpProtocolError } from '@lineup/shared';
import { parseSurfaceMessageFromFrame } from '@lineup/shared/bridge';
import { buildSurfaceDocuments } from './documents.js';
import { SURFACE_CSP, SURFACE_PERMISSIONS_POLICY, SURFACE_SANDBOX } from './sandbox.js';

/** What browsers report as the origin of a sandboxed frame without allow-same-origin. */
const OPAQUE_ORIGIN = 'null';
/** How many frames up a message's source may be from the host's frame and still be this Surface's. */
const MAX_FRAME_DEPTH = 8;
/** The class of every host frame of a Surface. */
export const SURFACE_FRAME_CLASS = 'lineup-surface';

/** What the owner of a frame hears from its windows. */
export interface FrameLinkHandlers {
  /** The content frame said `ready` and handed over the port. */
  onReady(port: MessagePort): void;
  /** A window message from inside the frame that the host does not read (after `ready`, or malformed). */
  onForeign(): void;
  /** The first message from the content frame was not a valid `ready` with one port. */
  onInvalid(issues: readonly UIIssue[]): void;
}

export class FrameLink {
  readonly frame: HTMLIFrameElement;
  readonly #view: Window;
  #port: MessagePort | null = null;
  #handlers: FrameLinkHandlers | null = null;
  #disposed = false;

  constructor(document: Document) {
    const view = document.defaultView;
    if (view === null) throw new TypeError('mountSurface: the container is not in a window.');
    this.#view = view;
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', SURFACE_SANDBOX);
    frame.setAttribute('allow', SURFACE_PERMISSIONS_POLICY);
    // CSP Embedded Enforcement (Chromium): whatever document the frame holds must accept at least the seed's
    // policy. The wrapper's own policy is stricter.
    frame.setAttribute('csp', SURFACE_CSP);
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.className = SURFACE_FRAME_CLASS;
    frame.srcdoc = buildSurfaceDocuments().wrapper;
    this.frame = frame;
    view.addEventListener('message', this.#onWindowMessage);
  }

  /** The channel's port, once the content frame said `ready`. */
  get port(): MessagePort | null {
    return this.#port;
  }

  /** Gives the frame to its owner; a `ready` that came before is handed over at once. */
  attach(handlers: FrameLinkHandlers): void {
    this.#handlers = handlers;
    if (this.#port !== null) handlers.onReady(this.#port);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#view.removeEventListener('message', this.#onWindowMessage);
    this.#port?.close();
    this.#port = null;
    this.#handlers = null;
    this.frame.remove();
  }

  /** The content frame's window: the one frame inside the wrapper (which has no script of its own). */
  #contentWindow(): Window | null {
    try {
      return (this.frame.contentWindow?.[0] as Window | undefined) ?? null;
    } catch {
      return null;
    }
  }

  /** Whether a message came from this frame: the wrapper, the content, or anything inside it. */
  #fromThisFrame(source: MessageEventSource | null): boolean {
    const outer = this.frame.contentWindow;
    if (outer === null || source === null) return false;
    let current: unknown = source;
    for (let depth = 0; depth < MAX_FRAME_DEPTH; depth++) {
      if (current === outer) return true;
      let parent: unknown;
      try {
        parent = (current as Window).parent;
      } catch {
        return false;
      }
      if (parent === undefined || parent === null || parent === current) return false;
      current = parent;
    }
    return false;
  }

  readonly #onWindowMessage = (event: MessageEvent) => {
    if (this.#disposed || !this.#fromThisFrame(event.source)) return;
    if (this.#port !== null || event.source !== this.#contentWindow() || event.origin !== OPAQUE_ORIGIN) {
      // After the handshake nothing from the frame's windows is read: its data is not even touched.
      this.#handlers?.onForeign();
      return;
    }
    let message: ReturnType<typeof parseSurfaceMessageFromFrame>;
    try {
      message = parseSurfaceMessageFromFrame(event.data, undefined);
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      this.#handlers?.onInvalid(error.issues);
      return;
    }
    const [port] = event.ports;
    if (message.type !== 'ready' || event.ports.length !== 1 || port === undefined) {
      this.#handlers?.onInvalid([
        { path: 'type', code: 'invalid_value', message: 'The first message must be ready, with one port.' },
      ]);
      return;
    }
    this.#port = port;
    this.#handlers?.onReady(port);
  };
}

/** The spare frame of each document, loading in a hidden holder until a mount takes it. */
const spares = new WeakMap<Document, FrameLink>();

function canMoveFrames(document: Document): boolean {
  const view = document.defaultView as (Window & { Element: typeof Element }) | null;
  return typeof (view?.Element.prototype as { moveBefore?: unknown } | undefined)?.moveBefore === 'function';
}

/**
 * Loads a spare Surface frame in `document` now, so that the next `mountSurface` there does not wait for
 * one (a host calls this when it expects Surfaces, e.g. as a conversation opens). Every mount loads the next
 * spare. Does nothing where frames cannot be moved without reloading (`Element.moveBefore` missing), or when a
 * spare is already loading.
 */
export function prepareSurfaceFrame(document: Document = globalThis.document): void {
  if (spares.has(document) || !canMoveFrames(document) || document.body === null) return;
  const link = new FrameLink(document);
  // In the viewport and at a Surface's size, but transparent, behind the page, inert and out of the
  // accessibility tree: a frame that is hidden or off screen is not rendered (Chromium throttles it), and a
  // Surface starting in it right after the move would measure itself as 0.
  const holder = document.createElement('div');
  holder.setAttribute('data-lineup-spare-surface', '');
  holder.setAttribute('aria-hidden', 'true');
  holder.inert = true;
  holder.style.cssText =
    'position:fixed;top:0;left:0;width:100%;height:240px;opacity:0;pointer-events:none;overflow:hidden;z-index:-2147483647';
  link.frame.style.cssText = 'display:block;width:100%;height:240px;border:0';
  holder.appendChild(link.frame);
  document.body.appendChild(holder);
  spares.set(document, link);
}

/**
 * A frame for a new Surface in `container`: the spare, moved there without reloading, or a new one. A new
 * spare starts loading once the browser is idle.
 */
export function takeSurfaceFrame(container: HTMLElement): FrameLink {
  const document = container.ownerDocument;
  const spare = spares.get(document);
  spares.delete(document);
  let link: FrameLink;
  if (spare?.frame.isConnected) {
    const holder = spare.frame.parentElement;
    (container as HTMLElement & { moveBefore(node: Node, child: Node | null): void }).moveBefore(
      spare.frame,
      null,
    );
    holder?.remove();
    link = spare;
  } else {
    spare?.dispose();
    link = new FrameLink(document);
    container.appendChild(link.frame);
  }
  if (canMoveFrames(document)) {
    const view = document.defaultView as Window;
    const later = () => prepareSurfaceFrame(document);
    if (typeof view.requestIdleCallback === 'function') view.requestIdleCallback(later, { timeout: 500 });
    else view.setTimeout(later, 50);
  }
  return link;
}
