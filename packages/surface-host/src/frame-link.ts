/**
 * A Surface frame and its channel, before and after it holds a Surface: the host's frame with the wrapper
 * document (documents.ts) and the one `ready` it accepts from the content frame inside it.
 *
 * A frame's documents do not depend on the bundle, so one can load before it is needed: each document keeps
 * a pool of spare frames (one unless the host asks for more), hidden, and `mountSurface` moves one into place
 * with `Element.moveBefore` (which keeps a frame's documents; a plain move would reload them) and gives it the
 * bundle over the port. A frame serves one Surface: once it held one it is never returned to the pool, and
 * closing the Surface removes it. Where `moveBefore` is missing, every mount loads a frame of its own.
 */
import type { UIIssue } from '@lineup/shared';
import { LineUpProtocolError } from '@lineup/shared';
import { parseSurfaceMessageFromFrame } from '@lineup/shared/bridge';
import { buildFrameDocuments, type SurfaceInlineStart } from './documents.js';
import { SURFACE_SANDBOX, surfaceEmbeddedPolicy, surfacePermissionsPolicy } from './sandbox.js';

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
  /** Whether the frame's documents carry their Surface's bundle (a frame loaded for it): no `start` is sent. */
  readonly startsInline: boolean;

  constructor(document: Document, start?: SurfaceInlineStart) {
    const view = document.defaultView;
    if (view === null) throw new TypeError('mountSurface: the container is not in a window.');
    this.#view = view;
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', SURFACE_SANDBOX);
    frame.setAttribute('allow', surfacePermissionsPolicy(start?.devices));
    // CSP Embedded Enforcement (Chromium): whatever document the frame holds must accept at least the seed's
    // policy (with the origins a view was granted, for a frame loaded for it). The wrapper's own policy is stricter.
    frame.setAttribute('csp', surfaceEmbeddedPolicy(start?.connectSources, start?.resourceSources));
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.className = SURFACE_FRAME_CLASS;
    frame.srcdoc = buildFrameDocuments(start).wrapper;
    this.frame = frame;
    this.startsInline = start !== undefined;
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

/** The most spare frames a document keeps loaded (`prepareSurfaceFrame`'s `frames`). */
export const MAX_SPARE_SURFACE_FRAMES = 8;

export interface PrepareSurfaceFrameOptions {
  /**
   * How many spare frames the document keeps loaded, from 1 to `MAX_SPARE_SURFACE_FRAMES`: as many as Surfaces
   * may open there at once. Default: as many as it keeps already (1 at first).
   */
  readonly frames?: number;
}

/**
 * The spare frames of one document, each loading or loaded in a hidden holder of its own until a mount takes
 * it. A frame serves one Surface: once taken it never comes back here, and closing its Surface removes it.
 */
interface FramePool {
  /** How many spares the document keeps. */
  size: number;
  /** The spares, oldest first. */
  readonly spares: FrameLink[];
  /** Whether a refill is scheduled. */
  refilling: boolean;
  /**
   * The frame of the latest Surface mounted in the document: spares are loaded at its width, so that the next
   * Surface, which a host usually opens in a place as wide, finds its frame already at its size.
   */
  latest: WeakRef<HTMLIFrameElement> | null;
  /** The width (CSS pixels) a mount laid its frame out at last, for when that frame is gone. */
  width: number | null;
}

const pools = new WeakMap<Document, FramePool>();

/**
 * How long after a mount the pool starts loading the next spare, at the earliest (ms), and then only once the
 * host is idle: loading a frame keeps a small machine's cores busy for a while, and the Surface that just
 * opened should have them first.
 */
const REFILL_DELAY = 100;

/** The attribute that marks a spare's holder. */
const SPARE_HOLDER_ATTRIBUTE = 'data-lineup-spare-surface';

export function canMoveFrames(document: Document): boolean {
  const view = document.defaultView as (Window & { Element: typeof Element }) | null;
  return typeof (view?.Element.prototype as { moveBefore?: unknown } | undefined)?.moveBefore === 'function';
}

function checkPoolSize(frames: unknown): number {
  if (
    typeof frames !== 'number' ||
    !Number.isInteger(frames) ||
    frames < 1 ||
    frames > MAX_SPARE_SURFACE_FRAMES
  )
    throw new TypeError(
      `prepareSurfaceFrame: options.frames must be a whole number from 1 to ${MAX_SPARE_SURFACE_FRAMES}.`,
    );
  return frames;
}

function poolOf(document: Document): FramePool {
  let pool = pools.get(document);
  if (pool === undefined) {
    pool = { size: 1, spares: [], refilling: false, latest: null, width: null };
    pools.set(document, pool);
  }
  return pool;
}

/**
 * The width spares are laid out at: that of the latest Surface's frame while it is in the document and laid
 * out (read when the pool is filled, once the host is idle), else the width a mount last laid a frame out at,
 * else the viewport's.
 */
function spareWidth(pool: FramePool): string {
  const latest = pool.latest?.deref();
  const width = (latest?.isConnected ? latest.clientWidth : 0) || pool.width;
  return width !== null && width > 0 ? `${width}px` : '100%';
}

/** A new spare frame, loading in its holder. */
function loadSpare(document: Document, body: HTMLElement, width: string): FrameLink {
  const link = new FrameLink(document);
  const holder = hiddenHolder(document, SPARE_HOLDER_ATTRIBUTE, width);
  link.frame.style.cssText = 'display:block;width:100%;height:240px;border:0';
  holder.appendChild(link.frame);
  body.appendChild(holder);
  return link;
}

/**
 * A holder for a frame that loads before it is shown: in the viewport and at a Surface's size, but transparent,
 * behind the page, inert and out of the accessibility tree — a frame that is hidden or off screen is not rendered
 * (Chromium throttles it), and a Surface starting in it right after the move would measure itself as 0.
 * `attribute` marks it (empty value); `width` is a CSS width.
 */
export function hiddenHolder(document: Document, attribute: string, width: string): HTMLDivElement {
  const holder = document.createElement('div');
  holder.setAttribute(attribute, '');
  holder.setAttribute('aria-hidden', 'true');
  holder.inert = true;
  holder.style.cssText =
    'position:fixed;top:0;left:0;width:100%;height:240px;opacity:0;pointer-events:none;overflow:hidden;z-index:-2147483647';
  holder.style.width = width;
  return holder;
}

/** Removes a spare that will serve no Surface, with its holder. */
function discardSpare(spare: FrameLink): void {
  const holder = spare.frame.parentElement;
  spare.dispose();
  if (holder?.hasAttribute(SPARE_HOLDER_ATTRIBUTE)) holder.remove();
}

/**
 * Brings the pool to its size: drops spares the host removed from the document (replacing the body, say: they
 * cannot be moved), the newest spares when fewer are wanted, and loads new ones.
 */
function fillPool(document: Document, pool: FramePool): void {
  const kept = pool.spares.filter((spare) => spare.frame.isConnected);
  for (const spare of pool.spares) if (!kept.includes(spare)) discardSpare(spare);
  pool.spares.splice(0, pool.spares.length, ...kept);
  while (pool.spares.length > pool.size) discardSpare(pool.spares.pop() as FrameLink);
  const body = document.body;
  if (body === null) return;
  // Spares already loaded take the width too: resized now, in the background, not when a Surface opens.
  const width = spareWidth(pool);
  for (const spare of pool.spares) {
    const holder = spare.frame.parentElement;
    if (holder?.hasAttribute(SPARE_HOLDER_ATTRIBUTE) && holder.style.width !== width)
      holder.style.width = width;
  }
  while (pool.spares.length < pool.size) pool.spares.push(loadSpare(document, body, width));
}

function scheduleRefill(document: Document, pool: FramePool): void {
  if (pool.refilling) return;
  pool.refilling = true;
  const view = document.defaultView as Window;
  const refill = () => {
    pool.refilling = false;
    fillPool(document, pool);
  };
  view.setTimeout(() => {
    if (typeof view.requestIdleCallback === 'function') view.requestIdleCallback(refill, { timeout: 500 });
    else refill();
  }, REFILL_DELAY);
}

/**
 * Loads spare Surface frames in `document` now, so that Surfaces mounted there next do not wait for a frame to
 * load (a host calls this when it expects Surfaces, e.g. as a conversation opens): `frames` of them, as many as
 * may open at once (default: as many as the document keeps, 1 at first). Each spare serves one Surface, and the
 * pool is filled up again after each mount, once the host is idle. Does nothing where frames cannot be moved
 * without reloading (`Element.moveBefore` missing). Throws a `TypeError` when `frames` is not a whole number
 * from 1 to `MAX_SPARE_SURFACE_FRAMES`.
 */
export function prepareSurfaceFrame(
  document: Document = globalThis.document,
  options: PrepareSurfaceFrameOptions = {},
): void {
  const frames = options.frames === undefined ? undefined : checkPoolSize(options.frames);
  if (!canMoveFrames(document)) return;
  const pool = poolOf(document);
  if (frames !== undefined) pool.size = frames;
  fillPool(document, pool);
}

/** Records the width (CSS pixels) a mount laid its frame out at: the next spares are loaded as wide. */
export function recordSurfaceWidth(document: Document, width: number): void {
  if (width > 0) poolOf(document).width = width;
}

/**
 * A frame for a new Surface in `container`: a spare moved there without reloading (one that has loaded, if
 * any), or a new frame. The spare is not replaced at once: the pool is filled up again `REFILL_DELAY` later,
 * when the host is idle. A document without a pool gets one (of one spare) at its first mount.
 */
export function takeSurfaceFrame(container: HTMLElement, start?: SurfaceInlineStart): FrameLink {
  const document = container.ownerDocument;
  if (!canMoveFrames(document)) {
    const link = new FrameLink(document, start);
    container.appendChild(link.frame);
    return link;
  }
  const pool = poolOf(document);
  // A spare's policy grants no origin: a view granted some gets a frame loaded for it. So does a MiniApp page,
  // whose texts (a whole app) and fragment need not cross as a message.
  if (
    (start?.connectSources?.length ?? 0) > 0 ||
    (start?.resourceSources?.length ?? 0) > 0 ||
    (start?.devices?.length ?? 0) > 0 ||
    start?.protocol === 'miniapp'
  ) {
    const link = new FrameLink(document, start);
    container.appendChild(link.frame);
    return link;
  }
  const spares = pool.spares.filter((spare) => spare.frame.isConnected);
  const spare = spares.find((candidate) => candidate.port !== null) ?? spares[0];
  let link: FrameLink;
  if (spare === undefined) {
    link = new FrameLink(document, start);
    container.appendChild(link.frame);
  } else {
    pool.spares.splice(pool.spares.indexOf(spare), 1);
    const holder = spare.frame.parentElement;
    (container as HTMLElement & { moveBefore(node: Node, child: Node | null): void }).moveBefore(
      spare.frame,
      null,
    );
    holder?.remove();
    link = spare;
  }
  pool.latest = new WeakRef(link.frame);
  scheduleRefill(document, pool);
  return link;
}
