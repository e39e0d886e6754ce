/**
 * The two documents of a Surface frame (seed 000 §2.6: HTML only ever goes into a sandboxed `srcdoc`):
 *
 * - the **wrapper**, which the host mounts in its `iframe sandbox="allow-scripts"`: no script, one nested
 *   `iframe sandbox="allow-scripts"` holding the content, and a CSP whose `frame-src 'none'` makes it the
 *   parent that blocks any navigation of the content frame before a request is sent (a frame's navigation is
 *   checked against its parent's policy; a `srcdoc` is not a fetch, so the content itself still loads);
 * - the **content**, whose only parsed script is the containment prelude with the bridge (containment.ts with
 *   its parts, bridge.ts). The prelude receives the bundle in the host's `start` message and inserts its CSS,
 *   HTML and JS.
 *
 * Neither document depends on the bundle, so a host can load a frame before it knows which Surface it will
 * hold (frame-link.ts keeps spares ready). A frame loaded for one Surface is the exception
 * (`buildFrameDocuments(start)`): its prelude's configuration carries the instance and bundle as JSON strings, so
 * that no `start` has to cross; they are data there, never markup of either document. Both carry the same policy (`surfaceContentSecurityPolicy`), which
 * runs scripts only with the frame's nonce: the prelude, and the bundle script the prelude creates.
 */
import {
  MCP_VIEW_CHANNEL_LIMITS,
  type McpViewStorage,
  SURFACE_CHANNEL_LIMITS,
  SURFACE_EVENT_NAME_PATTERN,
  SURFACE_NAMESPACE,
  SURFACE_RESERVED_EVENT_NAMES,
} from '@lineup/shared/bridge';
import { installSurfaceBridge } from './bridge.js';
import {
  installSurfaceContainment,
  type SurfaceContainmentConfig,
  type SurfaceContainmentParts,
} from './containment.js';
import { guardSurfaceFocus } from './containment-focus.js';
import { captureFrameIntrinsics } from './containment-intrinsics.js';
import { guardSurfaceNavigation } from './containment-navigation.js';
import { closeSurfaceRealm } from './containment-realm.js';
import { installViewStorage } from './containment-storage.js';
import {
  SURFACE_ELEMENT_STAND_INS,
  SURFACE_FORBIDDEN_ELEMENTS,
  SURFACE_FORBIDDEN_MARKUP,
  SURFACE_OWN_TRUSTED_TYPES_POLICY,
  SURFACE_REMOVED_GLOBALS,
  SURFACE_SANDBOX,
  SURFACE_TRUSTED_TYPES_POLICY,
  surfaceContentSecurityPolicy,
  surfacePermissionsPolicy,
} from './sandbox.js';

/** The three texts of a Surface bundle (seed 000 §4.1 `app.html`, `app.css`, `app.js`). */
export interface SurfaceBundleText {
  readonly html: string;
  readonly css: string;
  readonly js: string;
}

/** What `buildSurfaceDocuments` returns. */
export interface SurfaceDocuments {
  /** The `srcdoc` of the frame the host mounts. */
  readonly wrapper: string;
  /** The `srcdoc` of the frame inside it, where the Surface runs. */
  readonly content: string;
  /** The Content Security Policy of both documents. */
  readonly policy: string;
  /** The frame's script nonce (base64 of 16 random bytes). */
  readonly nonce: string;
}

/** Event data may nest this deep; JSON depth beyond it is not a user intent. */
const MAX_EVENT_DATA_DEPTH = 32;

/**
 * How long a navigation of the Surface's document is held while the host removes the frame (ms): long enough
 * for a host to react to the port message even when busy, short enough that other Surfaces sharing the
 * sandbox process barely notice. The host normally removes the frame within a few milliseconds.
 */
const NAVIGATION_HOLD = Object.freeze({ first: 250, next: 50, total: 1_000 });

/**
 * The instance and bundle of a frame loaded for one Surface: the content document carries them, and the
 * prelude inserts the bundle at once instead of waiting for the host's `start`.
 */
export interface SurfaceInlineStart extends SurfaceBundleText {
  readonly instanceId: string;
  /** An MCP App view (`mountMcpView`) or a MiniApp page (`mountMiniAppPage`): its protocol and module scripts. */
  readonly protocol?: 'mcp_app' | 'miniapp';
  readonly modules?: readonly string[];
  /** A MiniApp page's URL fragment (`lineup-instance=<id>&…`). */
  readonly fragment?: string;
  /**
   * The sources the view's `connect-src` lists (origins the user granted it, as `mcpViewConnectSource` wrote
   * them); none by default. Only a frame loaded for the view carries them: a spare frame's policy has none.
   */
  readonly connectSources?: readonly string[];
  /** The sources the view's images, styles, fonts and media may come from (its granted `resourceDomains`). */
  readonly resourceSources?: readonly string[];
  /** The device features the view was granted (permissions-policy names), delegated by both frames. */
  readonly devices?: readonly string[];
  /** What an MCP App view's `localStorage` held, as its host kept it (`[key, value]` pairs). */
  readonly storage?: McpViewStorage;
}

/** How long a change to a view's `localStorage` waits before its snapshot goes to the host (ms). */
export const VIEW_STORAGE_FLUSH_DELAY = 100;

/** The prelude's configuration: the same for every Surface, but for the nonce (and an inline start). */
export function surfaceContainmentConfig(
  nonce: string,
  start?: SurfaceInlineStart,
): SurfaceContainmentConfig {
  return {
    ...(start === undefined
      ? {}
      : {
          start: {
            instance_id: start.instanceId,
            html: start.html,
            css: start.css,
            js: start.js,
            ...(start.protocol === undefined ? {} : { protocol: start.protocol }),
            ...(start.modules === undefined ? {} : { modules: start.modules }),
            ...(start.fragment === undefined ? {} : { fragment: start.fragment }),
            ...(start.storage === undefined ? {} : { storage: start.storage }),
          },
        }),
    viewStorage: {
      maxLength: MCP_VIEW_CHANNEL_LIMITS.maxStorageLength,
      maxItems: MCP_VIEW_CHANNEL_LIMITS.maxStorageItems,
      flushDelay: VIEW_STORAGE_FLUSH_DELAY,
    },
    namespace: SURFACE_NAMESPACE,
    eventNamePattern: SURFACE_EVENT_NAME_PATTERN.source,
    reservedEventNames: SURFACE_RESERVED_EVENT_NAMES,
    maxEventDataBytes: SURFACE_CHANNEL_LIMITS.maxEventDataBytes,
    maxEventDataDepth: MAX_EVENT_DATA_DEPTH,
    maxFrameHeight: SURFACE_CHANNEL_LIMITS.maxFrameHeight,
    eventBurst: SURFACE_CHANNEL_LIMITS.eventBurst,
    eventsPerSecond: SURFACE_CHANNEL_LIMITS.eventsPerSecond,
    nonce,
    forbiddenMarkup: SURFACE_FORBIDDEN_MARKUP.source,
    forbiddenElements: SURFACE_FORBIDDEN_ELEMENTS,
    removedGlobals: SURFACE_REMOVED_GLOBALS,
    elementStandIns: SURFACE_ELEMENT_STAND_INS,
    trustedTypesPolicy: SURFACE_TRUSTED_TYPES_POLICY,
    ownTrustedTypesPolicy: SURFACE_OWN_TRUSTED_TYPES_POLICY,
    navigationHold: NAVIGATION_HOLD,
  };
}

/** JSON for a script: `<` escaped as `\u003c`, so no string value can close the element. */
function scriptJSON(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Text for an attribute value in double quotes. */
function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A fresh script nonce: 16 random bytes in base64. */
function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The parts of the containment, each a self-contained function that goes into the prelude as its source text. */
const CONTAINMENT_PARTS: SurfaceContainmentParts = {
  captureIntrinsics: captureFrameIntrinsics,
  closeRealm: closeSurfaceRealm,
  guardNavigation: guardSurfaceNavigation,
  guardFocus: guardSurfaceFocus,
  installBridge: installSurfaceBridge,
  installStorage: installViewStorage,
};

/** The prelude script: the containment, called with its parts (the bridge among them). */
export function surfacePrelude(nonce: string, start?: SurfaceInlineStart): string {
  const parts = Object.entries(CONTAINMENT_PARTS)
    .map(([name, part]) => `${name}: ${part.toString()}`)
    .join(', ');
  return `(${installSurfaceContainment.toString()})(window, ${scriptJSON(surfaceContainmentConfig(nonce, start))}, {${parts}});`;
}

/** Both documents of one Surface frame, with a fresh nonce. */
export function buildSurfaceDocuments(): SurfaceDocuments {
  return buildFrameDocuments();
}

/**
 * Both documents of one Surface frame; with `start`, the content carries the instance and its bundle (a frame
 * loaded for that Surface: no `start` message has to cross).
 */
export function buildFrameDocuments(start?: SurfaceInlineStart): SurfaceDocuments {
  const nonce = createNonce();
  const policy = surfaceContentSecurityPolicy(nonce, start?.connectSources, start?.resourceSources);
  const head = [
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="referrer" content="no-referrer">',
  ].join('');
  const content = [
    '<!doctype html><html><head>',
    head,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '</head><body>',
    `<script nonce="${nonce}">${surfacePrelude(nonce, start)}</script>`,
    '</body></html>',
  ].join('');
  const wrapper = [
    '<!doctype html><html><head>',
    head,
    '<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{display:block;width:100%;height:100%;border:0}</style>',
    '</head><body>',
    `<iframe sandbox="${SURFACE_SANDBOX}" allow="${surfacePermissionsPolicy(start?.devices)}" referrerpolicy="no-referrer"`,
    ` title="Surface" srcdoc="${attribute(content)}"></iframe>`,
    '</body></html>',
  ].join('');
  return { wrapper, content, policy, nonce };
}
