/**
 * The isolation of every Surface frame (seed 000 §2), named once. A Surface is untrusted content: it runs in
 * an `iframe sandbox="allow-scripts"` — scripts, but an opaque origin (no `allow-same-origin`), so it cannot
 * read the host's cookies, storage or DOM, and no top navigation, popups or forms — under a CSP that lets
 * nothing reach the network.
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
 * The Surface's Content Security Policy: exactly the minimum of seed 000 §2.3 — no network, no remote script,
 * images only from `data:` and `blob:`, inline styles and scripts (the bundle itself) allowed.
 */
export const SURFACE_CSP =
  "default-src 'none'; connect-src 'none'; img-src data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/**
 * The frame's permissions policy (`allow` attribute): every powerful feature off, whatever the defaults of
 * the browser (seed 000 §2.3: no camera, no geolocation).
 */
export const SURFACE_PERMISSIONS_POLICY = [
  'camera',
  'microphone',
  'geolocation',
  'display-capture',
  'usb',
  'serial',
  'hid',
  'bluetooth',
  'payment',
  'clipboard-read',
  'clipboard-write',
]
  .map((feature) => `${feature} 'none'`)
  .join('; ');
