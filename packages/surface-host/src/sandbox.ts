/**
 * The isolation of every Surface frame (seed 000 §2), named once. A Surface is untrusted content: it runs in
 * an `iframe sandbox="allow-scripts"` — scripts, but an opaque origin (no `allow-same-origin`), so it cannot
 * read the host's cookies, storage or DOM, and no top navigation, popups or forms — inside a host-made wrapper
 * document whose CSP lets no frame load, under a CSP that lets nothing reach the network and only the host's
 * two scripts run.
 */

/** The only sandbox token a Surface frame gets. */
export const SURFACE_SANDBOX = 'allow-scripts';

/** Tokens a Surface frame must never get (seed 000 §2.2); a test checks the mounted frame against them. */
export const FORBIDDEN_SANDBOX_TOKENS: readonly string[] = Object.freeze([
  'allow-same-origin',
  'allow-top-navigation',
  'allow-top-navigation-by-user-activation',
  'allow-top-navigation-to-custom-protocols',
  'allow-popups',
  'allow-popups-to-escape-sandbox',
  'allow-forms',
  'allow-modals',
  'allow-downloads',
  'allow-storage-access-by-user-activation',
]);

/**
 * The minimum Content Security Policy of seed 000 §2.3 — no network, no remote script, images only from
 * `data:` and `blob:`, inline styles and scripts. Every Surface document gets `surfaceContentSecurityPolicy`,
 * which keeps each of these directives and narrows them.
 */
export const SURFACE_CSP =
  "default-src 'none'; connect-src 'none'; img-src data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/** The name of the containment's private Trusted Types policy (the other allowed name is `default`). */
export const SURFACE_TRUSTED_TYPES_POLICY = 'lineup-surface';
/**
 * The name of every Trusted Types policy a Surface makes itself (`trustedTypes.createPolicy`, whatever name it
 * asks for): the frame's CSP allows it any number of times, and the prelude routes each through its checks.
 */
export const SURFACE_OWN_TRUSTED_TYPES_POLICY = 'lineup-surface-own';

/**
 * `SURFACE_CSP` with `connect-src` listing `connect`, and `img-src`, `style-src`, `font-src` and `media-src` listing
 * `resources` (sources `mcpViewConnectSource` of `@lineup/shared/protocol` wrote), or `SURFACE_CSP` itself when both
 * are empty: what a frame's `csp` attribute requires of its document.
 */
export function surfaceEmbeddedPolicy(
  connect: readonly string[] = [],
  resources: readonly string[] = [],
): string {
  let policy = SURFACE_CSP;
  if (connect.length > 0) policy = policy.replace("connect-src 'none'", `connect-src ${connect.join(' ')}`);
  if (resources.length > 0) {
    const sources = resources.join(' ');
    policy = policy
      .replace('img-src data: blob:', `img-src data: blob: ${sources}`)
      .replace("style-src 'unsafe-inline'", `style-src 'unsafe-inline' ${sources}`);
    policy += `; font-src ${sources}; media-src ${sources}`;
  }
  return policy;
}

/**
 * The policy of a Surface's wrapper and content documents: `SURFACE_CSP`, with
 * - `script-src` narrowed to the frame's nonce, which only the host's prelude and the bundle script it creates
 *   carry (`'unsafe-inline'` stays for the letter of the seed; a browser ignores it when a nonce is present), so
 *   no inline handler, `javascript:` URL, `eval` or agent `<script>` runs;
 * - `frame-src`/`child-src 'none'`: no frame loads, and a navigation of the Surface's own frame is blocked by
 *   its parent, the wrapper, before any request is sent;
 * - no workers, objects, manifests, `<base>` or form targets;
 * - Trusted Types: every HTML parsing sink goes through the containment's default policy;
 * - with `connect` (an MCP App view the user granted origins to), `connect-src` lists exactly those sources: fetch,
 *   XHR, WebSocket, EventSource and beacons may reach them and nothing else;
 * - with `resources` (the view's granted `resourceDomains`), `img-src`, `style-src`, `font-src` and `media-src` list
 *   them too — never `script-src`: scripts stay the nonce's; every other directive stays.
 */
export function surfaceContentSecurityPolicy(
  nonce: string,
  connect: readonly string[] = [],
  resources: readonly string[] = [],
): string {
  if (!/^[A-Za-z0-9+/]{22}==$/.test(nonce))
    throw new TypeError('surfaceContentSecurityPolicy: the nonce must be the base64 of 16 bytes.');
  const loaded = resources.length === 0 ? '' : ` ${resources.join(' ')}`;
  return [
    "default-src 'none'",
    connect.length === 0 ? "connect-src 'none'" : `connect-src ${connect.join(' ')}`,
    `img-src data: blob:${loaded}`,
    `style-src 'unsafe-inline'${loaded}`,
    ...(resources.length === 0 ? [] : [`font-src${loaded}`, `media-src${loaded}`]),
    `script-src 'unsafe-inline' 'nonce-${nonce}'`,
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "manifest-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    `trusted-types default ${SURFACE_TRUSTED_TYPES_POLICY} ${SURFACE_OWN_TRUSTED_TYPES_POLICY} 'allow-duplicates'`,
  ].join('; ');
}

/**
 * HTML elements a Surface can never create: each would start a navigation or a preconnect that Chromium opens
 * (with a DNS lookup) before CSP blocks it — frames, embedded objects, and `<link>` (`rel=preconnect` is not
 * subject to CSP at all).
 */
export const SURFACE_FORBIDDEN_ELEMENTS: readonly string[] = Object.freeze([
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'fencedframe',
  'portal',
  'link',
]);

/**
 * Markup that would create one of `SURFACE_FORBIDDEN_ELEMENTS`: `<` and the tag name (with an optional XML
 * prefix), then what ends an HTML or XML tag name. HTML and XML tag names cannot be written another way
 * (no character references, case folding only), so a string this does not match creates none of them.
 */
export const SURFACE_FORBIDDEN_MARKUP = new RegExp(
  `<([A-Za-z_][^\\s<>/:]*:)?(${SURFACE_FORBIDDEN_ELEMENTS.join('|')})[\\t\\n\\f\\r />]`,
  'i',
);

/**
 * Globals removed from a Surface's realm before its code runs, besides every `RTC*`/`webkitRTC*` interface:
 * XSLT (it builds elements without `createElement`), the interfaces of the forbidden elements (a customized
 * built-in element could construct one), and workers.
 */
export const SURFACE_REMOVED_GLOBALS: readonly string[] = Object.freeze([
  'XSLTProcessor',
  'HTMLIFrameElement',
  'HTMLFrameElement',
  'HTMLFrameSetElement',
  'HTMLObjectElement',
  'HTMLEmbedElement',
  'HTMLFencedFrameElement',
  'FencedFrameConfig',
  'HTMLPortalElement',
  'HTMLLinkElement',
  'Worker',
  'SharedWorker',
]);

/**
 * The removed element interfaces that come back as inert stand-ins: `instanceof` them is false for every value, and
 * they construct nothing (libraries such as React test `instanceof HTMLIFrameElement`).
 */
export const SURFACE_ELEMENT_STAND_INS: readonly string[] = Object.freeze([
  'HTMLIFrameElement',
  'HTMLFrameElement',
  'HTMLFrameSetElement',
  'HTMLObjectElement',
  'HTMLEmbedElement',
  'HTMLLinkElement',
]);

/**
 * The frame's permissions policy (`allow` attribute): every powerful feature off, whatever the defaults of
 * the browser (seed 000 §2.3: no camera, no geolocation). Only features Chromium knows as policy-controlled:
 * an unknown name logs "Unrecognized feature" on every mount and disables nothing. Web Bluetooth, which has no
 * policy name in Chromium, is unreachable anyway: it needs a secure, non-opaque origin, and the frame's is opaque.
 */
export const SURFACE_PERMISSIONS_POLICY = [
  'camera',
  'microphone',
  'geolocation',
  'display-capture',
  'usb',
  'serial',
  'hid',
  'payment',
  'clipboard-read',
  'clipboard-write',
]
  .map((feature) => `${feature} 'none'`)
  .join('; ');

/**
 * `SURFACE_PERMISSIONS_POLICY` with each of `devices` (permissions-policy names a view was granted: geolocation,
 * clipboard-write) delegated to the frame's document (`feature *`: the document's origin is opaque, so no origin can
 * name it); every other feature stays `'none'`.
 */
export function surfacePermissionsPolicy(devices: readonly string[] = []): string {
  if (devices.length === 0) return SURFACE_PERMISSIONS_POLICY;
  return SURFACE_PERMISSIONS_POLICY.split('; ')
    .map((entry) => {
      const feature = entry.slice(0, entry.indexOf(' '));
      return devices.includes(feature) ? `${feature} *` : entry;
    })
    .join('; ');
}
