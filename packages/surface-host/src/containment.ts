/**
 * The containment prelude of a Surface frame: the first and only code the frame document itself runs. It
 * closes what the sandbox and the CSP leave open (seed 000 §2; DESIGN.md "Security, in one place"), then opens
 * the channel to the host and only then inserts the agent's HTML, CSS and script — when the host's `start`
 * arrives, or, in a frame loaded for one Surface whose configuration carries it, on the next task:
 *
 * - **A second connection path.** `RTCPeerConnection` ignores `connect-src` (TURN credentials leave over UDP or
 *   TCP), and Chromium opens a TCP connection — after a DNS lookup of any host name — for every frame
 *   navigation and `<link rel=preconnect>` before CSP gets to block it. So WebRTC is deleted from the realm;
 *   frames, embedded objects and `<link>` cannot be created (`createElement` refuses them, and every HTML
 *   parsing sink goes through a Trusted Types default policy that refuses their markup: containment-realm.ts);
 *   and a navigation of the Surface's own document is held in `beforeunload` — which runs before the browser
 *   hears of it — while the host, told over the port, removes the frame: the browser then drops the navigation
 *   (containment-navigation.ts).
 * - **A second realm.** The document's CSP lets only scripts with the frame's nonce run — this one, and the
 *   bundle script it creates from `start` (Trusted Types refuses script text from anywhere else) — and no frame
 *   can be created, so no copy of the bundle ever runs without this prelude before it.
 * - **A second document.** The channel is a `MessagePort` handed to the host with `ready`; state never goes to
 *   the frame's window. `document.open`/`write`, which would wipe these listeners, are refused.
 * - **Focus.** Keyboard focus is the Surface's only after a user gesture in the frame (a pointer down) or when
 *   the host reports that the user tabbed in; until then `focus()` does nothing, and should focus arrive another
 *   way, key and input events are stopped before any Surface code sees them, the focused element is blurred, and
 *   the host is told to take focus back (containment-focus.ts).
 * - **Links** cannot navigate a Surface: a click on `<a>`/`<area>` is cancelled (a `#fragment` link scrolls),
 *   and a link to another page loses its `href` (kept as `data-lineup-href`) as soon as it appears, because
 *   Chromium preconnects to a link's host when the user merely presses on it (containment-navigation.ts).
 *
 * This module is the prelude's entry: it runs the parts above in order, then keeps the channel, takes `start`
 * (the bridge, or an MCP App view's or a MiniApp page's `window.parent`, then the bundle once the frame is laid
 * out) and passes the
 * host's messages on. Like the bridge, `installSurfaceContainment` and each of its parts is one self-contained
 * function whose source text the host injects (documents.ts): the parts come in as an argument, not as imports.
 * Surface code runs after it in the same realm and may rewrite any prototype, so everything this code relies on
 * later is captured first (containment-intrinsics.ts).
 */
import type { installSurfaceBridge, SurfaceBridge } from './bridge.js';
import type { FrameWindow, SurfaceContainmentConfig } from './containment-config.js';
import type { guardSurfaceFocus } from './containment-focus.js';
import type { captureFrameIntrinsics } from './containment-intrinsics.js';
import type { guardSurfaceNavigation } from './containment-navigation.js';
import type { closeSurfaceRealm } from './containment-realm.js';
import type { installViewStorage } from './containment-storage.js';

export type { SurfaceContainmentConfig } from './containment-config.js';

/**
 * The self-contained functions the prelude is made of, in the order it runs them; documents.ts passes each as
 * its source text.
 */
export interface SurfaceContainmentParts {
  readonly captureIntrinsics: typeof captureFrameIntrinsics;
  readonly closeRealm: typeof closeSurfaceRealm;
  readonly guardNavigation: typeof guardSurfaceNavigation;
  readonly guardFocus: typeof guardSurfaceFocus;
  readonly installBridge: typeof installSurfaceBridge;
  readonly installStorage: typeof installViewStorage;
}

export function installSurfaceContainment(
  global: FrameWindow,
  config: SurfaceContainmentConfig,
  parts: SurfaceContainmentParts,
): void {
  const { captureIntrinsics, closeRealm, guardNavigation, guardFocus, installBridge, installStorage } = parts;
  // ── Intrinsics, captured before any Surface code (or any part of this prelude) can replace them ────────
  const intrinsics = captureIntrinsics(global);
  const {
    doc,
    hostWindow,
    defineProperty,
    isArray,
    now,
    abs,
    freeze,
    addListener,
    dispatchEvent,
    MessageEventClass,
    createObject,
    dataOf,
    appendChild,
    getBoundingClientRect,
    createElement,
    isPlainObject,
    getter,
  } = intrinsics;
  const keyOf = getter(global.KeyboardEvent.prototype, 'key');

  // ── 1–2. No connection CSP does not see, and no frame, object or link (containment-realm.ts) ───────────
  const { allowInertLinks, policy: privatePolicy, admitScripts } = closeRealm(global, config, intrinsics);

  // ── 3. The channel: a port handed to the host once; nothing is ever read from the window ───────────────
  const channel = new global.MessageChannel();
  const port = channel.port1;
  const post = port.postMessage.bind(port) as (message: Record<string, unknown>) => void;
  // Built at start and frozen: a report must not depend on anything Surface code could have changed by then.
  // Before start no Surface code has run; focus that arrives then (the user tabbed in early) is reported at
  // start, so that the host can grant it.
  let reports: Record<'navigation' | 'focus', Record<string, unknown>> | null = null;
  let focusBeforeStart = false;
  const report = (kind: 'navigation' | 'focus') => {
    if (reports !== null) post(reports[kind]);
    else if (kind === 'focus') focusBeforeStart = true;
  };

  // ── 4. Navigation: held until the host has removed the frame; links disarmed (containment-navigation.ts)
  guardNavigation(global, config, intrinsics, () => report('navigation'));

  // ── 5. Focus: earned by a gesture in the frame, or granted by the host after Tab (containment-focus.ts)
  const { hasEarned, grant: grantFocus } = guardFocus(global, intrinsics, () => report('focus'));

  // ── 6. On the host's start: the bridge, then the agent's CSS, HTML and script ──────────────────────────
  let bridge: SurfaceBridge | null = null;
  let instanceId: string | null = null;
  /**
   * An MCP App view's or a MiniApp page's window.parent: its messages to it go up the port as `mcp` (a view's
   * JSON-RPC) or `page` (a page's `lineup.miniapp.v1`) messages, and the host's come back as `message` events whose
   * `source` is this object (what the MCP Apps SDK and the MiniApp SDK check). The real parent, the wrapper
   * document, is never reachable from the page's code.
   */
  let viewParent: object | null = null;
  /** The type of the messages a view or a page exchanges with the host: `mcp` (JSON-RPC) or `page` (MiniApp). */
  let viewType: 'mcp' | 'page' | null = null;
  /** Takes the host's first `start`: which instance this frame holds, and its bundle. */
  const start = (message: Record<string, unknown>) => {
    const id = message.instance_id;
    const { html, css, js, protocol, modules, fragment } = message;
    if (
      typeof id !== 'string' ||
      typeof html !== 'string' ||
      typeof css !== 'string' ||
      typeof js !== 'string' ||
      (protocol !== undefined && protocol !== 'mcp_app' && protocol !== 'miniapp') ||
      (fragment !== undefined && (protocol !== 'miniapp' || typeof fragment !== 'string'))
    )
      return;
    const moduleTexts: string[] = [];
    if (modules !== undefined) {
      if (protocol === undefined || !isArray(modules)) return;
      for (let index = 0; index < modules.length; index++) {
        const text = modules[index];
        if (typeof text !== 'string') return;
        moduleTexts[index] = text;
      }
    }
    instanceId = id;
    const violation = (kind: string) =>
      freeze({ namespace: config.namespace, type: 'violation', instance_id: id, kind });
    reports = { navigation: violation('navigation'), focus: violation('focus') };
    if (focusBeforeStart && !hasEarned() && doc.hasFocus()) post(reports.focus);
    if (protocol === 'miniapp' && typeof fragment === 'string') {
      // What the page reads from its URL (`lineup-instance=<id>&lang=…`), on the document's URL before its
      // scripts run (about:srcdoc keeps a fragment; this is not a navigation).
      const here = global.location.href as string;
      const hash = here.indexOf('#');
      global.history.replaceState(null, '', `${hash < 0 ? here : here.slice(0, hash)}#${fragment}`);
    }
    if (protocol === 'mcp_app' || protocol === 'miniapp') {
      allowInertLinks();
      viewType = protocol === 'mcp_app' ? 'mcp' : 'page';
      installViewParent(id, viewType);
      if (protocol === 'mcp_app') {
        // A view's localStorage is the one its host keeps, with what it held: there before any of its scripts.
        installStorage(global, {
          initial: message.storage,
          ...config.viewStorage,
          send: (entries) => post({ namespace: config.namespace, type: 'storage', instance_id: id, entries }),
        });
        // Escape always reaches the host (which sees no key of this frame): it leaves a mode the host gave the view.
        const escapeKey = freeze({
          namespace: config.namespace,
          type: 'key',
          instance_id: id,
          key: 'Escape',
        });
        addListener(
          global,
          'keydown',
          (event: KeyboardEvent) => {
            if (event.isTrusted && keyOf(event) === 'Escape') post(escapeKey);
          },
          true,
        );
      }
    } else bridge = installBridge(global, { ...config, instanceId: id }, post);
    const width = message.width;
    whenLaidOut(typeof width === 'number' ? width : null, () => insertBundle(html, css, js, moduleTexts));
  };
  const installViewParent = (id: string, type: 'mcp' | 'page') => {
    const parent = createObject(null, {
      postMessage: {
        value: function postMessage(message: unknown) {
          if (!isPlainObject(message))
            throw new TypeError(
              type === 'mcp'
                ? 'LineUp view: a message to the host is a plain JSON-RPC object.'
                : 'LineUp page: a message to the runtime is a plain object.',
            );
          post({ namespace: config.namespace, type, instance_id: id, message });
        },
      },
    });
    freeze(parent);
    viewParent = parent;
    // window.parent is [Replaceable]: the view's own code reads this object instead of the wrapper's window.
    defineProperty(global, 'parent', {
      value: parent,
      writable: false,
      enumerable: true,
      configurable: false,
    });
  };
  const insertBundle = (html: string, css: string, js: string, modules: readonly string[]) => {
    const style = createElement(doc, 'style');
    style.textContent = css;
    appendChild(doc.head, style);
    // Through the private policy, which applies the same markup check as every other sink.
    doc.body.innerHTML = privatePolicy.createHTML(html);
    // Every script element is made before any of them is connected (and runs): nothing the bundle does can
    // change which texts the policy lets through. Module scripts run after the classic one, in order.
    const texts = modules.length === 0 ? [js] : js === '' ? modules : [js, ...modules];
    admitScripts(texts);
    const scripts: unknown[] = [];
    for (let index = 0; index < texts.length; index++) {
      const script = createElement(doc, 'script');
      script.nonce = config.nonce;
      if (modules.length > 0 && !(index === 0 && js !== '')) script.type = 'module';
      script.async = false;
      script.text = privatePolicy.createScript(texts[index] as string);
      scripts[index] = script;
    }
    admitScripts([]);
    for (let index = 0; index < scripts.length; index++) appendChild(doc.body, scripts[index]);
  };
  /** A JSON-RPC message from the host, as the `message` event the view listens for on its window. */
  const deliverToView = (message: unknown) => {
    if (viewParent === null || !isPlainObject(message)) return;
    const event = new MessageEventClass('message', { data: message });
    defineProperty(event, 'source', { value: viewParent });
    dispatchEvent(global, event);
  };
  /**
   * Runs `then` once the frame is laid out: a frame mounted into a hidden element has no size, and a frame
   * loaded ahead and just moved into place keeps the size of its old place until the browser lays it out in
   * the new one and the size reaches this document; a Surface measuring itself at start would read 0 or the
   * wrong width. So it waits until the body is as wide as the frame and the window is `width` wide (the
   * host's layout, from `start`), or the window was resized since (the host's layout changed again), checked
   * on each task; after a second it goes on anyway.
   */
  const boundingWidth = (element: unknown) => (getBoundingClientRect(element) as DOMRect).width;
  let resizedAt = Number.NEGATIVE_INFINITY;
  addListener(global, 'resize', () => {
    resizedAt = now();
  });
  const whenLaidOut = (width: number | null, then: () => void) => {
    const startedAt = now();
    const deadline = startedAt + 1_000;
    const attempt = () => {
      const atWidth = width === null || abs(global.innerWidth - width) <= 1 || resizedAt >= startedAt;
      if ((global.innerWidth > 0 && boundingWidth(doc.body) > 0 && atWidth) || now() >= deadline) then();
      else global.setTimeout(attempt, 0);
    };
    attempt();
  };
  port.onmessage = (event: MessageEvent) => {
    const data = dataOf(event);
    if (!isPlainObject(data) || data.namespace !== config.namespace) return;
    if (instanceId === null) {
      // Nothing but the first start counts until then.
      if (data.type === 'start') start(data);
      return;
    }
    if (data.instance_id !== instanceId) return;
    if (viewType !== null && data.type === viewType) deliverToView(data.message);
    else if (data.type === 'state' && isPlainObject(data.state)) bridge?.deliverState(data.state);
    else if (data.type === 'focus') grantFocus();
  };
  hostWindow.postMessage({ namespace: config.namespace, type: 'ready' }, '*', [channel.port2]);
  // A frame loaded for its Surface starts it on a later task: Chromium forwards a window message to another
  // process on a task of its own, and Surface code that navigated at once would hold the navigation before
  // `ready` had left, while the host cannot yet hear the report.
  const inlineStart = config.start;
  if (inlineStart !== undefined) global.setTimeout(() => start(inlineStart), 0);
}
