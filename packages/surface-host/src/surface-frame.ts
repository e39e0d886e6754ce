/**
 * Mounting one Surface instance (seed 000 §2, §4; flow 2 of the design): a contained frame (frame-link.ts,
 * documents.ts) and the host's end of `lineup.surface.v1`.
 *
 * The channel is bound to the one document the host created: the host accepts a single `ready` from the
 * content frame's window — it carries a `MessagePort` — and from then on talks only over that port: `start`
 * with the instance and its bundle (to a spare frame; a frame loaded for the Surface carries them), then the
 * state. Nothing is ever posted to a window. Every message is
 * validated (`parseSurfaceMessageFromFrame`) and rate limited; everything refused is reported, at most once per
 * second per kind. A `navigation` violation removes the Surface at once; a `focus` violation gives keyboard
 * focus back to the host; a flood of window messages removes the Surface too.
 */
import { LineUpProtocolError, type UIIssue } from '@lineup/shared';
import {
  MCP_VIEW_CHANNEL_LIMITS,
  type McpViewStorage,
  MINIAPP_PAGE_CHANNEL_LIMITS,
  parseSurfaceKeyMessage,
  parseSurfaceMcpMessage,
  parseSurfaceMessageFromFrame,
  parseSurfaceMessageToFrame,
  parseSurfacePageMessage,
  parseSurfaceStorageMessage,
  SURFACE_CHANNEL_LIMITS,
  SURFACE_NAMESPACE,
} from '@lineup/shared/bridge';
import type { UIEventPayload } from '@lineup/shared/protocol';
import type { SurfaceBundleText } from './documents.js';
import { recordSurfaceWidth, SURFACE_FRAME_CLASS, takeSurfaceFrame } from './frame-link.js';
import { ReportTally, TokenBucket } from './rate.js';
import { SURFACE_FORBIDDEN_MARKUP } from './sandbox.js';

/** A user intent from the Surface: exactly the payload of `lineup.v1.ui.event` (seed 000 §4.2). */
export type SurfaceEvent = UIEventPayload;

/** What the host refused or undid, and why. Repeated refusals are reported once per second with a count. */
export type SurfaceRejection =
  /** A message on the Surface's channel failed validation (`issues` of the first of `count`). */
  | { readonly reason: 'invalid_message'; readonly issues: readonly UIIssue[]; readonly count: number }
  /** Window messages from the Surface's frames, which the host never reads (only the first `ready` counts). */
  | { readonly reason: 'foreign_message'; readonly count: number }
  /** Events or resizes beyond the channel's rate, dropped. */
  | { readonly reason: 'rate_limited'; readonly count: number }
  /**
   * Events a Surface of an installed app does not declare (`events` of `mountSurface`), dropped: `event` names
   * the first of `count`.
   */
  | { readonly reason: 'undeclared_event'; readonly event: string; readonly count: number }
  /**
   * The Surface kept changing its height (more than `RESIZE_CHANGES_PER_SECOND` changes in a second, a resize
   * loop): its resizes are held for a second; `count` of them were not applied.
   */
  | { readonly reason: 'resize_throttled'; readonly count: number }
  /** The Surface took keyboard focus without a user gesture in it; focus went back to the host. */
  | { readonly reason: 'focus_taken' }
  /** The Surface tried to leave or reload its document; it was removed before the navigation left. */
  | { readonly reason: 'navigated' }
  /** The Surface's frames flooded the host with window messages (which it never reads); it was removed. */
  | { readonly reason: 'flooded' };

export interface MountSurfaceOptions {
  /** seed 000 §4.1 `instance_id`. */
  readonly instanceId: string;
  /** The bundle's texts, and its name as the frame's accessible title. */
  readonly bundle: SurfaceBundleText & { readonly name: string };
  /** The initial state (seed 000 §4.1), delivered after the frame's `ready`. */
  readonly state: Readonly<Record<string, unknown>>;
  /** Each valid user event, as the `ui.event` payload to send to the agent. */
  readonly onEvent: (event: SurfaceEvent) => void;
  /** What was refused or undone; for diagnostics and audit. */
  readonly onRejected?: (rejection: SurfaceRejection) => void;
  /** Height in CSS pixels before the Surface asks for another (default 240). */
  readonly initialHeight?: number;
  /** The most a `resize` may ask for here, in CSS pixels (default 1,200; never above the channel limit). */
  readonly maxHeight?: number;
  /**
   * The only events that pass (a Surface of an installed app: the events its manifest declares); any other is
   * dropped and reported as `undeclared_event`. Absent: every valid event passes (an inline Surface).
   */
  readonly events?: readonly string[];
}

export interface SurfaceHandle {
  readonly instanceId: string;
  /** The host's frame (it holds the wrapper document; the Surface runs in the frame inside it). */
  readonly frame: HTMLIFrameElement;
  /** Whether the Surface said `ready` and holds the channel. */
  readonly ready: boolean;
  /**
   * Delivers a new state (seed 000 §4.3 `ui.patch`): validated first (a JSON object within the size limit;
   * throws `LineUpProtocolError` and changes nothing otherwise), sent now if the frame is ready, else after
   * its `ready`.
   */
  patch(state: unknown): void;
  /** Removes the frame and stops listening. Calling it again does nothing. */
  close(): void;
  readonly closed: boolean;
}

const DEFAULT_HEIGHT = 240;
const DEFAULT_MAX_HEIGHT = 1_200;
/**
 * A shrink by less than this many CSS pixels is ignored: content whose height depends on its frame's (a scroll
 * bar that appears, text that reflows) cannot make the frame oscillate.
 */
export const RESIZE_SHRINK_TOLERANCE = 8;
/** More applied height changes than this within one second is a resize loop: resizes are held for a second. */
export const RESIZE_CHANGES_PER_SECOND = 12;
/**
 * How long after the user's Tab in the host a Surface's focus report can still be that Tab (ms), provided host
 * focus went nowhere else in between. Under load the report, and the host's own view that the frame has focus,
 * can each take hundreds of milliseconds.
 */
const TAB_ENTRY_MS = 2_000;
/** How often the host looks again whether the frame has focus while a Tab is pending (ms). */
const TAB_ENTRY_POLL_MS = 25;

/**
 * Throws `LineUpProtocolError` (at `app.html`) when a bundle's HTML holds markup a Surface can never have:
 * frames, embedded objects or `<link>` (`SURFACE_FORBIDDEN_ELEMENTS`). `mountSurface` calls it; a host can call
 * it first to answer the agent before it renders anything.
 */
export function checkSurfaceBundle(bundle: Pick<SurfaceBundleText, 'html'>): void {
  if (SURFACE_FORBIDDEN_MARKUP.test(bundle.html))
    throw new LineUpProtocolError([
      {
        path: 'app.html',
        code: 'invalid_value',
        message:
          'A Surface cannot contain frames, embedded objects or <link> elements (<iframe>, <frame>, <object>, <embed>, <link>, …).',
      },
    ]);
}

/** The UTF-8 bytes of a bundle's HTML, CSS and JS together (what `maxBundleBytes` bounds). */
export function surfaceBundleBytes(bundle: SurfaceBundleText): number {
  const encoder = new TextEncoder();
  return (
    encoder.encode(bundle.html).length + encoder.encode(bundle.css).length + encoder.encode(bundle.js).length
  );
}

/** Mounts a Surface in `container` and returns its handle. */
export function mountSurface(container: HTMLElement, options: MountSurfaceOptions): SurfaceHandle {
  return mountSurfaceFrame(container, options);
}

/**
 * The channel of an MCP App view (mcp-view.ts) or a MiniApp page (miniapp-page.ts) in a Surface frame: its module
 * scripts, its bound, and where its messages go. A frame with one has no `LineUpSurface` and gets no state.
 */
export interface ViewChannel {
  /** `mcp_app` (default): JSON-RPC in `mcp` messages; `miniapp`: `lineup.miniapp.v1` in `page` messages. */
  readonly protocol?: 'mcp_app' | 'miniapp';
  readonly modules: readonly string[];
  /** The most the texts may be together, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** Each valid message (a view's: one object, `jsonrpc: "2.0"`; a page's: one JSON object), in order. */
  readonly onMessage: (message: Readonly<Record<string, unknown>>) => void;
  /** The sources of the frame's `connect-src` (checked origins the user granted); none by default. */
  readonly connectSources?: readonly string[];
  /** The sources of its `img-src`, `style-src`, `font-src` and `media-src` beyond `data:`; none by default. */
  readonly resourceSources?: readonly string[];
  /** The device features its frames delegate (permissions-policy names the user granted); none by default. */
  readonly devices?: readonly string[];
  /** A MiniApp page's URL fragment (`lineup-instance=<id>&…`), set before its scripts run. */
  readonly fragment?: string;
  /** What an MCP App view's `localStorage` holds at its start (as its host kept it). */
  readonly storage?: McpViewStorage;
  /** The whole of an MCP App view's `localStorage` after a change (checked, in insertion order). */
  readonly onStorage?: (entries: McpViewStorage) => void;
  /** The user pressed Escape in an MCP App view. */
  readonly onEscape?: () => void;
}

/** A mounted frame's handle, with what only a view uses: its messages, and a height the host sets. */
export interface SurfaceFrameHandle extends SurfaceHandle {
  /**
   * Sends one message to a view (JSON-RPC) or a page (a MiniApp message), validated first: throws
   * `LineUpProtocolError` and sends nothing.
   */
  sendView(message: Readonly<Record<string, unknown>>): void;
  /** Sets the frame's height as a `resize` of the Surface would (clamped, at most once per frame, loop-safe). */
  resize(height: number): void;
}

/** `mountSurface`, or an MCP App view's frame when `viewChannel` is given. */
export function mountSurfaceFrame(
  container: HTMLElement,
  options: MountSurfaceOptions,
  viewChannel?: ViewChannel,
): SurfaceFrameHandle {
  const { instanceId, bundle, onEvent, onRejected } = options;
  const maxHeight = Math.min(options.maxHeight ?? DEFAULT_MAX_HEIGHT, SURFACE_CHANNEL_LIMITS.maxFrameHeight);
  // The initial state goes through the same check as every patch, and the markup through the containment's,
  // before anything is mounted.
  let state = stateMessage(instanceId, options.state).state;
  checkSurfaceBundle(bundle);
  const size =
    surfaceBundleBytes(bundle) +
    (viewChannel?.modules ?? []).reduce((sum, text) => sum + new TextEncoder().encode(text).length, 0);
  const protocol = viewChannel === undefined ? undefined : (viewChannel.protocol ?? 'mcp_app');
  const maxBytes = Math.min(
    viewChannel?.maxBytes ?? SURFACE_CHANNEL_LIMITS.maxBundleBytes,
    protocol === undefined
      ? SURFACE_CHANNEL_LIMITS.maxBundleBytes
      : protocol === 'mcp_app'
        ? MCP_VIEW_CHANNEL_LIMITS.maxViewBytes
        : MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes,
  );
  if (size > maxBytes)
    throw new LineUpProtocolError([
      {
        path: 'app',
        code: 'too_large',
        message:
          protocol === undefined
            ? `The Surface is ${size} bytes of HTML, CSS and JS; at most ${maxBytes} are allowed.`
            : protocol === 'mcp_app'
              ? `The view is ${size} bytes of HTML, CSS and scripts; this host runs views of at most ${maxBytes}.`
              : `The page is ${size} bytes of HTML, CSS and scripts; this host runs pages of at most ${maxBytes}.`,
      },
    ]);

  const view = container.ownerDocument.defaultView;
  if (view === null) throw new TypeError('mountSurface: the container is not in a window.');
  const viewStart =
    viewChannel === undefined || protocol === undefined
      ? {}
      : {
          protocol,
          modules: viewChannel.modules,
          ...(viewChannel.connectSources === undefined ? {} : { connectSources: viewChannel.connectSources }),
          ...(viewChannel.resourceSources === undefined
            ? {}
            : { resourceSources: viewChannel.resourceSources }),
          ...(viewChannel.devices === undefined ? {} : { devices: viewChannel.devices }),
          ...(viewChannel.fragment === undefined ? {} : { fragment: viewChannel.fragment }),
          ...(viewChannel.storage === undefined || protocol !== 'mcp_app'
            ? {}
            : { storage: viewChannel.storage }),
        };
  /** The type of the frame's messages besides the Surface's own: a view's `mcp`, a page's `page`. */
  const viewType = protocol === undefined ? null : protocol === 'mcp_app' ? 'mcp' : 'page';
  const parseView = (input: unknown) =>
    viewType === 'page'
      ? parseSurfacePageMessage(input, instanceId)
      : parseSurfaceMcpMessage(input, instanceId);
  const link = takeSurfaceFrame(container, { instanceId, ...bundle, ...viewStart });
  const frame = link.frame;
  frame.setAttribute('title', bundle.name);
  frame.setAttribute('data-instance-id', instanceId);
  frame.style.width = '100%';
  frame.style.border = '0';
  frame.style.display = 'block';
  frame.style.height = `${Math.min(options.initialHeight ?? DEFAULT_HEIGHT, maxHeight)}px`;

  const now = () => view.performance.now();
  const events = new TokenBucket(
    SURFACE_CHANNEL_LIMITS.eventBurst,
    SURFACE_CHANNEL_LIMITS.eventsPerSecond,
    now,
  );
  const resizes = new TokenBucket(
    SURFACE_CHANNEL_LIMITS.resizesPerSecond,
    SURFACE_CHANNEL_LIMITS.resizesPerSecond,
    now,
  );
  const invalid = new ReportTally<readonly UIIssue[]>(
    (count, issues) => onRejected?.({ reason: 'invalid_message', issues, count }),
    view,
  );
  const foreign = new ReportTally<undefined>(
    (count) => onRejected?.({ reason: 'foreign_message', count }),
    view,
  );
  const limited = new ReportTally<undefined>(
    (count) => onRejected?.({ reason: 'rate_limited', count }),
    view,
  );
  const declared = options.events === undefined ? null : new Set(options.events);
  const undeclared = new ReportTally<string>(
    (count, event) => onRejected?.({ reason: 'undeclared_event', event, count }),
    view,
  );
  const viewLimits = viewType === 'page' ? MINIAPP_PAGE_CHANNEL_LIMITS : MCP_VIEW_CHANNEL_LIMITS;
  const viewMessages = new TokenBucket(viewLimits.messageBurst, viewLimits.messagesPerSecond, now);
  // A flood of window messages would queue ahead of this Surface's own reports (a navigation held for the
  // host must be answered quickly): past the limit the Surface is removed.
  const windowMessages = new TokenBucket(
    SURFACE_CHANNEL_LIMITS.windowMessageBurst,
    SURFACE_CHANNEL_LIMITS.windowMessagesPerSecond,
    now,
  );

  let port: MessagePort | null = null;
  let closed = false;
  // Resizes: the latest request wins, applied once per animation frame (many in one frame are one change).
  let requestedHeight: number | null = null;
  let resizeScheduled = false;
  let appliedChanges: number[] = [];
  let resizeHeldUntil = Number.NEGATIVE_INFINITY;
  const throttled = new ReportTally<undefined>(
    (count) => onRejected?.({ reason: 'resize_throttled', count }),
    view,
  );
  const nextFrame = (callback: () => void) => {
    if (typeof view.requestAnimationFrame === 'function') view.requestAnimationFrame(() => callback());
    else view.setTimeout(callback, 16);
  };
  const applyResize = () => {
    resizeScheduled = false;
    const height = requestedHeight;
    requestedHeight = null;
    if (closed || height === null) return;
    const current = Number.parseFloat(frame.style.height) || 0;
    if (height === current || (height < current && current - height < RESIZE_SHRINK_TOLERANCE)) return;
    const at = now();
    if (at < resizeHeldUntil) {
      throttled.add(undefined);
      return;
    }
    appliedChanges = appliedChanges.filter((time) => at - time < 1_000);
    if (appliedChanges.length >= RESIZE_CHANGES_PER_SECOND) {
      resizeHeldUntil = at + 1_000;
      appliedChanges = [];
      throttled.add(undefined);
      return;
    }
    appliedChanges.push(at);
    frame.style.height = `${height}px`;
  };
  let lastHostFocus: Element | null = null;
  let tabEntered = false;
  /** When the user's last Tab in the host was pressed, while no host element has taken focus since. */
  let pendingTabAt: number | null = null;

  const sendState = () => {
    // A view gets no state: it speaks JSON-RPC.
    if (viewChannel !== undefined) return;
    port?.postMessage({ namespace: SURFACE_NAMESPACE, type: 'state', instance_id: instanceId, state });
  };
  const requestResize = (height: number) => {
    requestedHeight = Math.min(Math.ceil(height), maxHeight);
    if (!resizeScheduled) {
      resizeScheduled = true;
      nextFrame(applyResize);
    }
  };
  /** Messages to a view before its `ready`, sent once it holds the channel (in order). */
  const pendingToView: unknown[] = [];

  const refuse = (error: unknown) => {
    if (!(error instanceof LineUpProtocolError)) throw error;
    invalid.add(error.issues);
  };

  const onPortMessage = (event: MessageEvent) => {
    if (closed) return;
    // Cheap checks before any parsing: a flood costs the host a property read per message.
    const data = event.data as { readonly type?: unknown } | null;
    const type = typeof data === 'object' && data !== null ? data.type : undefined;
    const storage = type === 'storage' && viewType === 'mcp';
    const key = type === 'key' && viewType === 'mcp';
    if (
      (type === 'event' && !events.take()) ||
      (type === 'resize' && !resizes.take()) ||
      (type !== undefined && (type === viewType || storage || key) && !viewMessages.take())
    ) {
      limited.add(undefined);
      return;
    }
    if (key) {
      try {
        parseSurfaceKeyMessage(event.data, instanceId);
      } catch (error) {
        refuse(error);
        return;
      }
      viewChannel?.onEscape?.();
      return;
    }
    if (storage) {
      let parsed: ReturnType<typeof parseSurfaceStorageMessage>;
      try {
        parsed = parseSurfaceStorageMessage(event.data, instanceId);
      } catch (error) {
        refuse(error);
        return;
      }
      viewChannel?.onStorage?.(parsed.entries);
      return;
    }
    if (type !== undefined && type === viewType && viewChannel !== undefined) {
      let parsed: { readonly message: Readonly<Record<string, unknown>> };
      try {
        parsed = parseView(event.data);
      } catch (error) {
        refuse(error);
        return;
      }
      viewChannel.onMessage(parsed.message);
      return;
    }
    let message: ReturnType<typeof parseSurfaceMessageFromFrame>;
    try {
      message = parseSurfaceMessageFromFrame(event.data, instanceId);
    } catch (error) {
      refuse(error);
      return;
    }
    switch (message.type) {
      case 'event':
        if (declared !== null && !declared.has(message.event)) {
          undeclared.add(message.event);
          return;
        }
        onEvent({ instance_id: instanceId, event: message.event, data: message.data });
        return;
      case 'resize':
        requestResize(message.height);
        return;
      case 'violation':
        if (message.kind === 'navigation') {
          // The frame holds the navigation until this removal reaches the browser, which then drops it.
          handle.close();
          onRejected?.({ reason: 'navigated' });
        } else onFocusTaken();
        return;
      case 'ready':
        invalid.add([
          {
            path: 'type',
            code: 'invalid_value',
            message: 'ready is sent once, through the window, with the port.',
          },
        ]);
        return;
    }
  };

  const grantFocus = () => {
    port?.postMessage({ namespace: SURFACE_NAMESPACE, type: 'focus', instance_id: instanceId });
  };
  /**
   * Focus is the Surface's when the user tabbed into it; otherwise it goes back to where it was. A Tab into a
   * frame moves focus in another process: the Surface's report can reach the host before the host sees the frame
   * focused, so while that Tab is pending (and host focus has gone nowhere else) the host looks again, for at
   * most `TAB_ENTRY_MS` after the key.
   */
  const onFocusTaken = () => {
    view.setTimeout(() => {
      if (!closed) decideFocus();
    }, 0);
  };
  const decideFocus = () => {
    const document = frame.ownerDocument;
    if (tabEntered || (pendingTabAt !== null && document.activeElement === frame)) {
      tabEntered = true;
      pendingTabAt = null;
      grantFocus();
      return;
    }
    if (pendingTabAt !== null && now() - pendingTabAt <= TAB_ENTRY_MS) {
      view.setTimeout(() => {
        if (!closed) decideFocus();
      }, TAB_ENTRY_POLL_MS);
      return;
    }
    pendingTabAt = null;
    if (document.activeElement === frame) {
      const previous = lastHostFocus as (Element & { focus?: (options?: FocusOptions) => void }) | null;
      if (previous?.isConnected && typeof previous.focus === 'function')
        previous.focus({ preventScroll: true });
      else frame.blur();
    }
    onRejected?.({ reason: 'focus_taken' });
  };
  const onHostFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (target === frame) return;
    tabEntered = false;
    // The Tab (or whatever moved focus) landed on something else: it no longer speaks for this frame.
    pendingTabAt = null;
    if (target instanceof view.Element && !target.classList.contains(SURFACE_FRAME_CLASS))
      lastHostFocus = target;
  };
  const onHostKeyDown = (event: KeyboardEvent) => {
    // Focus moves into a frame asynchronously (its document is another process's), and no event in the host
    // says so; a focus report after the user's Tab, with the frame focused, is that Tab.
    if (event.key === 'Tab' && event.isTrusted) pendingTabAt = now();
  };
  const onHostPointerDown = () => {
    pendingTabAt = null;
  };

  const handle: SurfaceFrameHandle = {
    instanceId,
    frame,
    get ready() {
      return port !== null;
    },
    get closed() {
      return closed;
    },
    patch(next: unknown) {
      if (closed) throw new TypeError(`Surface ${instanceId} is closed.`);
      state = stateMessage(instanceId, next).state;
      sendState();
    },
    sendView(message) {
      if (closed) throw new TypeError(`View ${instanceId} is closed.`);
      if (viewType === null) throw new TypeError('A Surface speaks no JSON-RPC: only a view or a page does.');
      const checked = parseView({
        namespace: SURFACE_NAMESPACE,
        type: viewType,
        instance_id: instanceId,
        message,
      });
      if (port === null) pendingToView.push(checked);
      else port.postMessage(checked);
    },
    resize(height) {
      if (closed || !Number.isFinite(height) || height <= 0) return;
      requestResize(Math.min(height, SURFACE_CHANNEL_LIMITS.maxFrameHeight));
    },
    close() {
      if (closed) return;
      closed = true;
      view.removeEventListener('keydown', onHostKeyDown, true);
      view.removeEventListener('pointerdown', onHostPointerDown, true);
      frame.ownerDocument.removeEventListener('focusin', onHostFocusIn, true);
      invalid.dispose();
      foreign.dispose();
      limited.dispose();
      undeclared.dispose();
      port = null;
      link.dispose();
    },
  };

  link.attach({
    onReady(received) {
      if (closed || port !== null) return;
      port = received;
      port.onmessage = onPortMessage;
      if (!link.startsInline) {
        // A frame loaded ahead and just moved keeps the size of its old place until the browser lays it out
        // here and the new size reaches its documents: reading the width lays it out now, so that the size is
        // on its way before `start`, and the containment runs the bundle once its document is that wide.
        const width = frame.clientWidth;
        recordSurfaceWidth(frame.ownerDocument, width);
        port.postMessage({
          namespace: SURFACE_NAMESPACE,
          type: 'start',
          instance_id: instanceId,
          html: bundle.html,
          css: bundle.css,
          js: bundle.js,
          ...viewStart,
          ...(width > 0 && width <= SURFACE_CHANNEL_LIMITS.maxFrameWidth ? { width } : {}),
        });
      }
      sendState();
      for (const message of pendingToView.splice(0)) port.postMessage(message);
    },
    onForeign: () => {
      if (closed) return;
      if (windowMessages.take()) {
        foreign.add(undefined);
        return;
      }
      handle.close();
      onRejected?.({ reason: 'flooded' });
    },
    onInvalid: (issues) => invalid.add(issues),
  });
  view.addEventListener('keydown', onHostKeyDown, true);
  view.addEventListener('pointerdown', onHostPointerDown, true);
  frame.ownerDocument.addEventListener('focusin', onHostFocusIn, true);
  const active = frame.ownerDocument.activeElement;
  if (active !== null && !active.classList.contains(SURFACE_FRAME_CLASS)) lastHostFocus = active;
  return handle;
}

/** A state message for the frame, validated as the channel defines it. */
function stateMessage(instanceId: string, state: unknown) {
  const message = parseSurfaceMessageToFrame(
    { namespace: SURFACE_NAMESPACE, type: 'state', instance_id: instanceId, state },
    instanceId,
  );
  if (message.type !== 'state') throw new TypeError('unreachable: a state message parsed as another type');
  return message;
}
