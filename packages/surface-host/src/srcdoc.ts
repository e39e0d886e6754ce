/**
 * The `srcdoc` of a Surface frame (seed 000 §2.6: HTML only ever goes into a sandboxed srcdoc). Its head
 * holds, in this order, the CSP (so it governs everything after it) and the `LineUpSurface` bridge (so it is
 * installed before any agent content runs); the body holds the bundle's HTML.
 *
 * The bundle's CSS and JS are never parsed as HTML: they travel as JSON string literals (every `<` written
 * `\u003c`) and a loader puts them into a `<style>` and a `<script>` element through `textContent`. So no
 * content of theirs — `</script>`, `<!--`, `</style>` — can end an element early or change how the rest
 * of the document is read, and they need no escaping that could alter the author's code.
 */
import {
  SURFACE_CHANNEL_LIMITS,
  SURFACE_EVENT_NAME_PATTERN,
  SURFACE_NAMESPACE,
  SURFACE_RESERVED_EVENT_NAMES,
} from '@lineup/shared/bridge';
import { installSurfaceBridge, type SurfaceBridgeConfig } from './bridge.js';
import { SURFACE_CSP } from './sandbox.js';

/** The three texts of a Surface bundle (seed 000 §4.1 `app.html`, `app.css`, `app.js`). */
export interface SurfaceBundleText {
  readonly html: string;
  readonly css: string;
  readonly js: string;
}

/** Event data may nest this deep; JSON depth beyond it is not a user intent. */
const MAX_EVENT_DATA_DEPTH = 32;

/** The bridge's configuration for one instance. */
export function surfaceBridgeConfig(instanceId: string): SurfaceBridgeConfig {
  return {
    namespace: SURFACE_NAMESPACE,
    instanceId,
    eventNamePattern: SURFACE_EVENT_NAME_PATTERN.source,
    reservedEventNames: SURFACE_RESERVED_EVENT_NAMES,
    maxEventDataBytes: SURFACE_CHANNEL_LIMITS.maxEventDataBytes,
    maxEventDataDepth: MAX_EVENT_DATA_DEPTH,
    maxFrameHeight: SURFACE_CHANNEL_LIMITS.maxFrameHeight,
  };
}

/** JSON for a script: `<` escaped as `\u003c`, so no string value can close the element. */
function scriptJSON(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The whole frame document for one Surface instance. */
export function buildSurfaceSrcdoc(instanceId: string, bundle: SurfaceBundleText): string {
  const bridge = `(${installSurfaceBridge.toString()})(window, ${scriptJSON(surfaceBridgeConfig(instanceId))});`;
  const style = `(function (css) { var element = document.createElement('style'); element.textContent = css; document.head.appendChild(element); })(${scriptJSON(bundle.css)});`;
  const script = `(function (js) { var element = document.createElement('script'); element.textContent = js; document.body.appendChild(element); })(${scriptJSON(bundle.js)});`;
  return [
    '<!doctype html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${SURFACE_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<script>${bridge}</script>`,
    `<script>${style}</script>`,
    '</head>',
    '<body>',
    bundle.html,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}
