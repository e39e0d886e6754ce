/**
 * How the containment prelude (containment.ts) keeps a Surface's document where it is: a navigation is held in
 * `beforeunload` — which runs before the browser hears of it — while the host, told over the port, removes the
 * frame (the browser then drops the navigation); a click on a link is cancelled (a `#fragment` link scrolls); and
 * a link to another page loses its `href` (kept as `data-lineup-href`) as soon as it appears, because Chromium
 * preconnects to a link's host when the user merely presses on it.
 *
 * Like every part of the prelude, `guardSurfaceNavigation` is one self-contained function — no imports, no outer
 * variables — whose source text the host injects (documents.ts).
 */
import type { FrameWindow, SurfaceContainmentConfig, Uncurried } from './containment-config.js';
import type { FrameIntrinsics } from './containment-intrinsics.js';

export function guardSurfaceNavigation(
  global: FrameWindow,
  config: SurfaceContainmentConfig,
  intrinsics: FrameIntrinsics,
  reportNavigation: () => void,
): void {
  const {
    doc,
    uncurry,
    getter,
    defineProperty,
    now,
    min,
    addListener,
    preventDefault,
    composedPath,
    localNameOf,
    getAttribute,
    getAttributeNS,
  } = intrinsics;
  const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';

  // ── Navigation: held until the host has removed the frame ──────────────────────────────────────────────
  let held = 0;
  addListener(
    global,
    'beforeunload',
    () => {
      reportNavigation();
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

  // ── Links to other pages lose their target: Chromium preconnects to a link's host when the user presses
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
}
