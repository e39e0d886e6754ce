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
 *   parsing sink goes through a Trusted Types default policy that refuses their markup); and a navigation of
 *   the Surface's own document is held in `beforeunload` — which runs before the browser hears of it — while
 *   the host, told over the port, removes the frame: the browser then drops the navigation.
 * - **A second realm.** The document's CSP lets only scripts with the frame's nonce run — this one, and the
 *   bundle script it creates from `start` (Trusted Types refuses script text from anywhere else) — and no frame
 *   can be created, so no copy of the bundle ever runs without this prelude before it.
 * - **A second document.** The channel is a `MessagePort` handed to the host with `ready`; state never goes to
 *   the frame's window. `document.open`/`write`, which would wipe these listeners, are refused.
 * - **Focus.** Keyboard focus is the Surface's only after a user gesture in the frame (a pointer down) or when
 *   the host reports that the user tabbed in; until then `focus()` does nothing, and should focus arrive another
 *   way, key and input events are stopped before any Surface code sees them, the focused element is blurred, and
 *   the host is told to take focus back.
 * - **Links** cannot navigate a Surface: a click on `<a>`/`<area>` is cancelled (a `#fragment` link scrolls),
 *   and a link to another page loses its `href` (kept as `data-lineup-href`) as soon as it appears, because
 *   Chromium preconnects to a link's host when the user merely presses on it.
 *
 * Like the bridge, `installSurfaceContainment` is one self-contained function whose source text the host
 * injects (documents.ts). Surface code runs after it in the same realm and may rewrite any prototype, so
 * everything this code relies on later is captured first.
 */
import type { installSurfaceBridge, SurfaceBridge } from './bridge.js';
import type { FrameWindow, SurfaceContainmentConfig, Uncurried } from './containment-config.js';

export type { SurfaceContainmentConfig } from './containment-config.js';

export function installSurfaceContainment(
  global: FrameWindow,
  config: SurfaceContainmentConfig,
  installBridge: typeof installSurfaceBridge,
): void {
  // ── Intrinsics, captured before any Surface code can replace them ──────────────────────────────────────
  const doc = global.document;
  const hostWindow = global.parent.parent; // the frame sits in the host's containment wrapper
  const functionCall: unknown = Function.prototype.call;
  const uncurry = (Function.prototype.bind as (this: unknown, self: unknown) => unknown).call(
    Function.prototype.bind,
    functionCall,
  ) as (method: unknown) => Uncurried;
  const getter = (prototype: object, name: string) =>
    uncurry((Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor).get);
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const ObjectPrototype = Object.prototype;
  const isArray = Array.isArray;
  const now = global.performance.now.bind(global.performance);
  const min = Math.min;
  const abs = Math.abs;
  const freeze = Object.freeze;
  const addListener = uncurry(global.EventTarget.prototype.addEventListener);
  const dispatchEvent = uncurry(global.EventTarget.prototype.dispatchEvent);
  const MessageEventClass = global.MessageEvent;
  const createObject = Object.create;
  const preventDefault = uncurry(global.Event.prototype.preventDefault);
  const stopImmediatePropagation = uncurry(global.Event.prototype.stopImmediatePropagation);
  const composedPath = uncurry(global.Event.prototype.composedPath);
  const targetOf = getter(global.Event.prototype, 'target');
  const dataOf = getter(global.MessageEvent.prototype, 'data');
  const localNameOf = getter(global.Element.prototype, 'localName');
  const getAttribute = uncurry(global.Element.prototype.getAttribute);
  const getAttributeNS = uncurry(global.Element.prototype.getAttributeNS);
  const isConnectedOf = getter(global.Node.prototype, 'isConnected');
  const appendChild = uncurry(global.Node.prototype.appendChild);
  const getBoundingClientRect = uncurry(global.Element.prototype.getBoundingClientRect);
  const blurHTML = uncurry(global.HTMLElement.prototype.blur);
  const focusHTML = uncurry(global.HTMLElement.prototype.focus);
  const blurSVG = uncurry(global.SVGElement.prototype.blur);
  const DocumentPrototype = global.Document.prototype;
  const createElement = uncurry(DocumentPrototype.createElement);
  const createElementNS = uncurry(DocumentPrototype.createElementNS);
  const toLowerCase = uncurry(String.prototype.toLowerCase);
  const lastIndexOf = uncurry(String.prototype.lastIndexOf);
  const slice = uncurry(String.prototype.slice);
  const regExpExec = RegExp.prototype.exec;
  const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
  const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';
  /** A pattern whose test cannot be redirected: `test` looks up `exec` on the instance, so pin it there. */
  const pinned = (source: string, flags: string) => {
    const pattern = new RegExp(source, flags);
    defineProperty(pattern, 'exec', { value: regExpExec });
    return uncurry(RegExp.prototype.test).bind(null, pattern) as (text: string) => boolean;
  };
  const matchesForbiddenMarkup = pinned(config.forbiddenMarkup, 'i');
  const isConnectionInterface = pinned('^(webkit)?RTC', '');
  const forbiddenElements: Record<string, true> = Object.create(null);
  for (const name of config.forbiddenElements) forbiddenElements[name] = true;
  const refuseElement = (name: string) => {
    throw new TypeError(
      `LineUp Surface: a Surface cannot create <${name}> elements (frames, embedded objects and links leave the Surface).`,
    );
  };
  const isPlainObject = (value: unknown): value is Record<string, unknown> => {
    if (typeof value !== 'object' || value === null || isArray(value)) return false;
    const prototype = getPrototypeOf(value);
    return prototype === ObjectPrototype || prototype === null;
  };

  // ── 1. No connection CSP does not see: WebRTC, XSLT and the element interfaces that could make frames ──
  for (const name of Object.getOwnPropertyNames(global)) {
    if (isConnectionInterface(name) || config.removedGlobals.indexOf(name) !== -1) delete global[name];
  }
  for (const name of Object.getOwnPropertyNames(global)) {
    // Fail closed: if anything could not be removed, no Surface code runs.
    if (isConnectionInterface(name) || config.removedGlobals.indexOf(name) !== -1)
      throw new Error(`LineUp Surface: could not remove ${name}; the Surface does not start.`);
  }
  // The removed element interfaces come back as stand-ins that no element is an instance of, and that construct
  // nothing (a subclass's `super()` throws): libraries test `x instanceof HTMLIFrameElement` (React does, to
  // follow focus into frames), and would otherwise stop at a ReferenceError.
  const hasInstance = Symbol.hasInstance;
  for (let index = 0; index < config.elementStandIns.length; index++) {
    const name = config.elementStandIns[index] as string;
    const standIn = () => {
      throw new TypeError('Illegal constructor');
    };
    defineProperty(standIn, hasInstance, { value: () => false });
    defineProperty(standIn, 'name', { value: name });
    freeze(standIn.prototype);
    freeze(standIn);
    defineProperty(global, name, { value: standIn, writable: false, enumerable: false, configurable: false });
  }

  // ── 2. No frame, object or link: refused at creation and in every HTML parsing sink ─────────────────────
  /**
   * An MCP App view's scripts are built by common tools that make a `<link>` to probe the browser (Vite's
   * modulepreload check) or to load a font: in a view, `createElement('link')` gives an inert element of no
   * HTML kind instead (no preconnect, no fetch, nothing to fail on), and everything else stays refused.
   */
  let inertLinks = false;
  const INERT_LINK = 'lineup-inert-link';
  defineProperty(DocumentPrototype, 'createElement', {
    value: function createSurfaceElement(this: unknown, name: unknown, options?: unknown) {
      const text = `${name}`;
      const lower = toLowerCase(text);
      if (inertLinks && lower === 'link') return createElement(this, INERT_LINK);
      if (forbiddenElements[lower] === true) refuseElement(lower);
      return createElement(this, text, options);
    },
  });
  defineProperty(DocumentPrototype, 'createElementNS', {
    value: function createSurfaceElementNS(
      this: unknown,
      namespace: unknown,
      qualifiedName: unknown,
      options?: unknown,
    ) {
      const text = `${qualifiedName}`;
      const local = toLowerCase(slice(text, lastIndexOf(text, ':') + 1));
      if (inertLinks && namespace === HTML_NAMESPACE && local === 'link')
        return createElement(this, INERT_LINK);
      if (namespace === HTML_NAMESPACE && forbiddenElements[local] === true) refuseElement(local);
      return createElementNS(this, namespace, text, options);
    },
  });
  // document.open (also implied by document.write after load) would erase every listener of this prelude.
  for (const method of ['open', 'write', 'writeln']) {
    defineProperty(DocumentPrototype, method, {
      value: () => {
        throw new TypeError(`LineUp Surface: document.${method} is not available in a Surface.`);
      },
    });
  }
  // window.open into `_self` (or a named target) navigates this document, and Chromium may connect to the URL's
  // host before the navigation reaches the hold below: refused outright (the sandbox allows no popups anyway).
  defineProperty(global, 'open', {
    value: () => {
      throw new TypeError('LineUp Surface: window.open is not available in a Surface.');
    },
  });
  const trustedTypes = global.trustedTypes;
  if (typeof trustedTypes !== 'object' || trustedTypes === null)
    throw new Error('LineUp Surface: this browser has no Trusted Types; the Surface does not start.');
  const checkMarkup = (input: string) => {
    if (matchesForbiddenMarkup(input))
      throw new TypeError(
        'LineUp Surface: HTML in a Surface may not contain frames, embedded objects or <link> elements.',
      );
    return input;
  };
  /**
   * The bundle's scripts while `insertBundle` makes their elements (before any of them runs): the only script
   * texts the private policy lets through. Empty before and after.
   */
  let bundleScripts: readonly string[] = [];
  const privatePolicy = trustedTypes.createPolicy(config.trustedTypesPolicy, {
    createHTML: checkMarkup,
    createScript: (input: string) => {
      for (let index = 0; index < bundleScripts.length; index++)
        if (bundleScripts[index] === input) return input;
      return null;
    },
  });
  trustedTypes.createPolicy('default', {
    createHTML: (input: string, _type: string, sink: string) => {
      if (sink === 'HTMLIFrameElement srcdoc')
        throw new TypeError('LineUp Surface: srcdoc is not available.');
      return checkMarkup(input);
    },
    createScript: () => {
      throw new TypeError('LineUp Surface: a Surface cannot create scripts from text.');
    },
    createScriptURL: () => {
      throw new TypeError('LineUp Surface: a Surface cannot load scripts or workers.');
    },
  });
  // The Surface's own policies. Libraries make one as they load (Svelte does, and stops if it cannot; Vue tries):
  // each is made under the one name the CSP allows for them, its HTML through the markup check, its scripts and
  // script URLs refused as the default policy refuses them. So a policy of its own lets nothing past the checks,
  // and the browser's createPolicy is out of reach: a duplicate of the private policy cannot be made.
  const createNativePolicy = uncurry(global.TrustedTypePolicyFactory.prototype.createPolicy);
  const apply = Reflect.apply;
  defineProperty(global.TrustedTypePolicyFactory.prototype, 'createPolicy', {
    value: function createOwnPolicy(_name: unknown, rules?: unknown) {
      const createHTML =
        typeof rules === 'object' && rules !== null
          ? (rules as { createHTML?: unknown }).createHTML
          : undefined;
      return createNativePolicy(trustedTypes, config.ownTrustedTypesPolicy, {
        createHTML: (input: string, ...rest: unknown[]) => {
          if (typeof createHTML !== 'function')
            throw new TypeError('LineUp Surface: this policy has no createHTML.');
          const html: unknown = apply(createHTML, rules, [input, ...rest]);
          return checkMarkup(html === null || html === undefined ? '' : `${html}`);
        },
        createScript: () => {
          throw new TypeError('LineUp Surface: a Surface cannot create scripts from text.');
        },
        createScriptURL: () => {
          throw new TypeError('LineUp Surface: a Surface cannot load scripts or workers.');
        },
      });
    },
  });
  // The Sanitizer API's setHTML is not a Trusted Types sink; it gets the same markup check.
  for (const owner of [global.Element, global.ShadowRoot]) {
    const setHTML = owner?.prototype?.setHTML;
    if (typeof setHTML !== 'function') continue;
    const callSetHTML = uncurry(setHTML);
    defineProperty(owner.prototype, 'setHTML', {
      value: function setSurfaceHTML(this: unknown, input: unknown, options?: unknown) {
        return callSetHTML(this, checkMarkup(`${input}`), options);
      },
    });
  }

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

  // ── 4. Navigation: held until the host has removed the frame ────────────────────────────────────────────
  let held = 0;
  addListener(
    global,
    'beforeunload',
    () => {
      report('navigation');
      const budget = min(
        held === 0 ? config.navigationHold.first : config.navigationHold.next,
        config.navigationHold.total - held,
      );
      if (budget <= 0) return;
      const start = now();
      while (now() - start < budget) {
        // Hold this navigation: the host removes the frame meanwhile, and the browser then drops it.
      }
      held += now() - start;
    },
    true,
  );
  /** `<a>` (HTML or SVG) or `<area>`; the built-in getter checks that it is an element at all. */
  const isLink = (node: unknown): boolean => {
    try {
      const name = localNameOf(node);
      return name === 'a' || name === 'area';
    } catch {
      return false;
    }
  };
  const onLinkActivation = (event: Event) => {
    const path = composedPath(event) as unknown[];
    for (let index = 0; index < path.length; index++) {
      const node = path[index];
      if (node === global || node === doc) return;
      if (!isLink(node)) continue;
      preventDefault(event);
      // A same-document link only scrolls (its URL would resolve against the host page, not this document).
      const href = getAttribute(node, 'href') ?? getAttributeNS(node, XLINK_NAMESPACE, 'href');
      try {
        if (typeof href === 'string' && href.charAt(0) === '#' && href.length > 1)
          doc.getElementById(decodeURIComponent(href.slice(1)))?.scrollIntoView();
      } catch {
        // A malformed fragment scrolls nowhere.
      }
      return;
    }
  };
  addListener(global, 'click', onLinkActivation, true);
  addListener(global, 'auxclick', onLinkActivation, true);

  // ── 5. Focus: earned by a gesture in the frame, or granted by the host after Tab ───────────────────────
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
        report('focus');
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

  // ── 6. Links to other pages lose their target: Chromium preconnects to a link's host when the user presses
  // the pointer on it, before any event reaches this document. A mutation observer sees every link before the
  // user can press it (its callback runs before the next input event), and keeps the target only as data.
  const MutationObserverClass = global.MutationObserver;
  const observe = uncurry(MutationObserverClass.prototype.observe);
  const recordType = getter(global.MutationRecord.prototype, 'type');
  const recordTarget = getter(global.MutationRecord.prototype, 'target');
  const recordAddedNodes = getter(global.MutationRecord.prototype, 'addedNodes');
  const nodeListLength = getter(global.NodeList.prototype, 'length');
  const nodeTypeOf = getter(global.Node.prototype, 'nodeType');
  const querySelectorAll = uncurry(global.Element.prototype.querySelectorAll);
  const fragmentQuerySelectorAll = uncurry(global.DocumentFragment.prototype.querySelectorAll);
  const removeAttribute = uncurry(global.Element.prototype.removeAttribute);
  const removeAttributeNS = uncurry(global.Element.prototype.removeAttributeNS);
  const setAttribute = uncurry(global.Element.prototype.setAttribute);
  const LINKS = 'a[href], area[href], a[*|href]';
  const disarm = (element: unknown) => {
    if (!isLink(element)) return;
    for (const namespace of [null, XLINK_NAMESPACE]) {
      const href =
        namespace === null ? getAttribute(element, 'href') : getAttributeNS(element, namespace, 'href');
      if (typeof href !== 'string' || (href.charAt(0) === '#' && href.length > 1)) continue;
      setAttribute(element, 'data-lineup-href', href);
      if (namespace === null) removeAttribute(element, 'href');
      else removeAttributeNS(element, namespace, 'href');
    }
  };
  const disarmWithin = (node: unknown, query: Uncurried) => {
    const links = query(node, LINKS);
    for (let index = 0; index < nodeListLength(links); index++) disarm(links[index]);
  };
  const linkObserver = new MutationObserverClass((records: unknown[]) => {
    for (let index = 0; index < records.length; index++) {
      const record = records[index];
      if (recordType(record) === 'attributes') {
        disarm(recordTarget(record));
        continue;
      }
      const added = recordAddedNodes(record);
      for (let item = 0; item < nodeListLength(added); item++) {
        const node = added[item];
        if (nodeTypeOf(node) !== 1) continue;
        disarm(node);
        disarmWithin(node, querySelectorAll);
      }
    }
  });
  const watchLinks = (root: unknown) =>
    observe(linkObserver, root, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['href'],
    });
  watchLinks(doc);
  // Shadow roots are outside the document's subtree: each is watched as it is made. (Declarative shadow
  // roots, which the parser makes without attachShadow, are refused by the markup check.)
  const attachShadow = uncurry(global.Element.prototype.attachShadow);
  defineProperty(global.Element.prototype, 'attachShadow', {
    value: function attachWatchedShadow(this: unknown, init: unknown) {
      const root = attachShadow(this, init);
      watchLinks(root);
      disarmWithin(root, fragmentQuerySelectorAll);
      return root;
    },
  });

  // ── 7. On the host's start: the bridge, then the agent's CSS, HTML and script ─────────────────────────
  let bridge: SurfaceBridge | null = null;
  let instanceId: string | null = null;
  /**
   * An MCP App view's window.parent: the view's messages to it go up the port as `mcp` messages, and the host's
   * come back as `message` events whose `source` is this object (what the MCP Apps SDK checks). The real parent,
   * the wrapper document, is never reachable from the view's code.
   */
  let viewParent: object | null = null;
  /** Takes the host's first `start`: which instance this frame holds, and its bundle. */
  const start = (message: Record<string, unknown>) => {
    const id = message.instance_id;
    const { html, css, js, protocol, modules } = message;
    if (
      typeof id !== 'string' ||
      typeof html !== 'string' ||
      typeof css !== 'string' ||
      typeof js !== 'string' ||
      (protocol !== undefined && protocol !== 'mcp_app')
    )
      return;
    const moduleTexts: string[] = [];
    if (modules !== undefined) {
      if (protocol !== 'mcp_app' || !isArray(modules)) return;
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
    if (focusBeforeStart && !earned && doc.hasFocus()) post(reports.focus);
    if (protocol === 'mcp_app') {
      inertLinks = true;
      installViewParent(id);
    } else bridge = installBridge(global, { ...config, instanceId: id }, post);
    const width = message.width;
    whenLaidOut(typeof width === 'number' ? width : null, () => insertBundle(html, css, js, moduleTexts));
  };
  const installViewParent = (id: string) => {
    const parent = createObject(null, {
      postMessage: {
        value: function postMessage(message: unknown) {
          if (!isPlainObject(message))
            throw new TypeError('LineUp view: a message to the host is a plain JSON-RPC object.');
          post({ namespace: config.namespace, type: 'mcp', instance_id: id, message });
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
    bundleScripts = texts;
    const scripts: unknown[] = [];
    for (let index = 0; index < texts.length; index++) {
      const script = createElement(doc, 'script');
      script.nonce = config.nonce;
      if (modules.length > 0 && !(index === 0 && js !== '')) script.type = 'module';
      script.async = false;
      script.text = privatePolicy.createScript(texts[index]);
      scripts[index] = script;
    }
    bundleScripts = [];
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
    if (data.type === 'mcp') deliverToView(data.message);
    else if (data.type === 'state' && isPlainObject(data.state)) bridge?.deliverState(data.state);
    else if (data.type === 'focus') {
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
    }
  };
  hostWindow.postMessage({ namespace: config.namespace, type: 'ready' }, '*', [channel.port2]);
  // A frame loaded for its Surface starts it on a later task: Chromium forwards a window message to another
  // process on a task of its own, and Surface code that navigated at once would hold the navigation before
  // `ready` had left, while the host cannot yet hear the report.
  const inlineStart = config.start;
  if (inlineStart !== undefined) global.setTimeout(() => start(inlineStart), 0);
}
