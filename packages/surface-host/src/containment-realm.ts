/**
 * What a Surface's realm can reach and create, closed by the containment prelude (containment.ts) before any
 * Surface code runs: no connection that CSP does not see (WebRTC, XSLT and the element interfaces that could make
 * frames are removed, the element interfaces put back as inert stand-ins), and no frame, embedded object or link
 * (`createElement` refuses them, and every HTML parsing sink goes through Trusted Types policies that refuse their
 * markup; `document.open`/`write` and `window.open` are refused). What the rest of the prelude keeps of it is the
 * private policy, the one way in for the bundle's HTML and scripts.
 *
 * Like every part of the prelude, `closeSurfaceRealm` is one self-contained function — no imports, no outer
 * variables — whose source text the host injects (documents.ts).
 */
import type { FrameWindow, SurfaceContainmentConfig } from './containment-config.js';
import type { FrameIntrinsics } from './containment-intrinsics.js';

/** What the rest of the prelude keeps of the closed realm: the ways the bundle gets in. */
export interface SurfaceRealm {
  /** From now on, `createElement('link')` gives an inert element (an MCP App view's scripts make links). */
  allowInertLinks(): void;
  /** The private Trusted Types policy: the bundle's HTML (through the markup check) and its scripts. */
  readonly policy: {
    createHTML(input: string): unknown;
    createScript(input: string): unknown;
  };
  /** The only script texts the private policy lets through from now on (the bundle's, while it is inserted). */
  admitScripts(texts: readonly string[]): void;
}

export function closeSurfaceRealm(
  global: FrameWindow,
  config: SurfaceContainmentConfig,
  intrinsics: FrameIntrinsics,
): SurfaceRealm {
  const {
    uncurry,
    defineProperty,
    freeze,
    DocumentPrototype,
    createElement,
    createElementNS,
    toLowerCase,
    lastIndexOf,
    slice,
    pinned,
  } = intrinsics;
  const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
  const matchesForbiddenMarkup = pinned(config.forbiddenMarkup, 'i');
  const isConnectionInterface = pinned('^(webkit)?RTC', '');
  const forbiddenElements: Record<string, true> = Object.create(null);
  for (const name of config.forbiddenElements) forbiddenElements[name] = true;
  const refuseElement = (name: string) => {
    throw new TypeError(
      `LineUp Surface: a Surface cannot create <${name}> elements (frames, embedded objects and links leave the Surface).`,
    );
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

  // ── 2. No frame, object or link: refused at creation and in every HTML parsing sink ────────────────────
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
  // host before the navigation reaches the hold (containment-navigation.ts): refused outright (the sandbox allows
  // no popups anyway).
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
   * The bundle's scripts while the prelude makes their elements (before any of them runs): the only script
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

  return {
    allowInertLinks: () => {
      inertLinks = true;
    },
    policy: privatePolicy,
    admitScripts: (texts: readonly string[]) => {
      bundleScripts = texts;
    },
  };
}
