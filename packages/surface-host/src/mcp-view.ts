/**
 * MCP App views (the `io.modelcontextprotocol/ui` extension; `@lineup/shared` docs/mcp.md) in Surface frames: the
 * same wrapper, sandbox, CSP and containment as every Surface, with the view's JSON-RPC in place of
 * `LineUpSurface`.
 *
 * - `mcpViewBundle(html)` turns a view's single HTML file into what a frame runs: its body, its styles, its
 *   classic scripts and its module scripts (inline only). What a contained view could never load — a script or a
 *   stylesheet from a URL, a frame, an object — is refused with a sentence that says which; head metadata that has
 *   no effect in a frame (`<meta>`, `<title>`, icons, preconnect and preload hints, `<base>`) is left out.
 * - `mountMcpView(container, options)` mounts it. The view's code sees a `window.parent` whose `postMessage` sends
 *   up the frame's port (its real parent is out of reach), and hears the host's messages as `message` events from
 *   that parent: what the MCP Apps SDK's `PostMessageTransport` expects. Every message is validated
 *   (`parseSurfaceMcpMessage`: one JSON-RPC 2.0 object within 1 MiB) and rate limited.
 * - `handle.transport` is a transport of the MCP TypeScript SDK's shape (`start`, `send`, `close`, `onmessage`), so
 *   the host end of the protocol can be the MCP Apps SDK's own `AppBridge` (`@modelcontextprotocol/ext-apps`),
 *   connected with `bridge.connect(handle.transport)`. This package does not depend on either SDK.
 * - A view's `localStorage` is its host's to keep (containment-storage.ts): `storage` is what it starts with,
 *   `onStorage` gets the whole of it after it changed.
 * - `prepareMcpView(document, options)` mounts a view ahead of its use, out of sight, where it loads and runs (and
 *   its host can answer its `ui/initialize`); `handle.moveTo(container)` then shows it without reloading it.
 */
import { MCP_VIEW_CHANNEL_LIMITS, type McpViewStorage, McpViewStorageSchema } from '@lineup/shared/bridge';
import {
  MCP_VIEW_GRANTABLE_DEVICES,
  type McpViewDevice,
  mcpViewConnectSource,
  mcpViewResourceSourceProblem,
} from '@lineup/shared/protocol';
import { canMoveFrames, hiddenHolder } from './frame-link.js';
import { CLASSIC_SCRIPT_TYPES, htmlRefusal, IGNORED_LINKS, shown } from './html-parts.js';
import { checkSurfaceBundle, mountSurfaceFrame, type SurfaceRejection } from './surface-frame.js';

/** What a frame runs of a view. */
export interface McpViewBundle {
  /** The body's markup, without its scripts and styles. */
  readonly html: string;
  /** Every `<style>` of the document, in order. */
  readonly css: string;
  /** The classic inline scripts, in order, as one script. */
  readonly js: string;
  /** The module scripts (`<script type="module">`), in order. */
  readonly modules: readonly string[];
}

const refusal = htmlRefusal;

/**
 * The parts of a view's HTML a frame runs. Throws `LineUpProtocolError` (at `view`) for what a contained view
 * cannot have: a script from a URL (a view's scripts are its own), a stylesheet from a URL not of `resourceDomains`
 * (the resource origins the user granted it: such a stylesheet is loaded by an `@import` at the head of its CSS), a
 * frame, an object or a link in its body. A `TypeError` names a resource domain that cannot be granted.
 * Needs `DOMParser` (a browser, or jsdom); the document it parses is inert: nothing in it runs or loads.
 */
export function mcpViewBundle(
  html: string,
  options: { readonly resourceDomains?: readonly string[] } = {},
): McpViewBundle {
  const Parser = (globalThis as { DOMParser?: typeof DOMParser }).DOMParser;
  if (Parser === undefined) throw new TypeError('mcpViewBundle needs DOMParser (a browser or jsdom).');
  const granted = resourceSources(options.resourceDomains);
  const document = new Parser().parseFromString(html, 'text/html');
  /** Stylesheets from a granted resource origin, loaded by `@import` at the head of the view's CSS. */
  const imports: string[] = [];
  const classic: string[] = [];
  const modules: string[] = [];
  for (const script of [...document.querySelectorAll('script')]) {
    const source = script.getAttribute('src');
    if (source !== null)
      throw refusal(
        'view',
        `The view loads a script from ${shown(source)}; a contained view has no network.`,
      );
    const type = (script.getAttribute('type') ?? '').trim().toLowerCase();
    if (type === 'module') modules.push(script.textContent ?? '');
    else if (CLASSIC_SCRIPT_TYPES.has(type)) classic.push(script.textContent ?? '');
    else continue; // A data block (JSON, an import map without URLs to fetch): inert, it stays in the markup.
    script.remove();
  }
  const styles: string[] = [];
  for (const style of [...document.querySelectorAll('style')]) {
    styles.push(style.textContent ?? '');
    style.remove();
  }
  for (const link of [...document.querySelectorAll('link')]) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (rel.includes('stylesheet')) {
      const href = link.getAttribute('href') ?? '';
      if (!fromGranted(href, granted))
        throw refusal(
          'view',
          `The view loads a stylesheet from ${shown(href)}; a contained view has no network but the resource origins the user granted it.`,
        );
      imports.push(`@import url(${JSON.stringify(new URL(href).href)});`);
      link.remove();
      continue;
    }
    if (rel.length === 0 || !rel.every((value) => IGNORED_LINKS.has(value)))
      throw refusal(
        'view',
        `The view has a <link rel="${rel.join(' ')}">, which a contained view cannot have.`,
      );
    link.remove();
  }
  for (const base of [...document.querySelectorAll('base')]) base.remove();
  const body = document.body?.innerHTML ?? '';
  checkSurfaceBundle({ html: body });
  return { html: body, css: [...imports, ...styles].join('\n'), js: classic.join('\n;\n'), modules };
}

/** Checked, written sources of granted resource domains: a `TypeError` names one that cannot be granted. */
function resourceSources(domains: readonly string[] = []): string[] {
  return [
    ...new Set(
      domains.map((domain) => {
        const problem = mcpViewResourceSourceProblem(domain);
        if (problem !== undefined) throw new TypeError(`${JSON.stringify(domain.slice(0, 256))}: ${problem}`);
        return mcpViewConnectSource(domain);
      }),
    ),
  ];
}

/**
 * Whether absolute URL `href` is of one of `sources` (`scheme://host[:port]`, `*.` for every subdomain, a port of
 * `*`): what a policy listing them would let the browser fetch. A relative or malformed URL never is.
 */
function fromGranted(href: string, sources: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  const defaultPort = url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '';
  return sources.some((source) => {
    const match = /^([a-z]+):\/\/([^/]+?)(?::(\d+|\*))?$/.exec(source);
    if (match === null || `${match[1]}:` !== url.protocol) return false;
    const host = match[2] as string;
    const hostMatches = host.startsWith('*.')
      ? url.hostname.endsWith(host.slice(1)) && url.hostname.length > host.length - 1
      : url.hostname === host;
    const port = match[3] ?? defaultPort;
    return hostMatches && (port === '*' || (url.port || defaultPort) === port);
  });
}

/** A JSON-RPC 2.0 message as it travels (the MCP SDK's `JSONRPCMessage`). */
export type McpJsonRpcMessage = Readonly<Record<string, unknown>>;

/**
 * The view's end as a transport of the MCP TypeScript SDK's shape: what `AppBridge.connect` takes. Messages of the
 * view that arrive before `onmessage` is set wait for it, in order.
 */
export interface McpViewTransport {
  start(): Promise<void>;
  send(message: McpJsonRpcMessage): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: McpJsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}

export interface MountMcpViewOptions {
  readonly instanceId: string;
  /** The view's name: the frame's accessible title. */
  readonly name: string;
  readonly view: McpViewBundle;
  /** The most the view's texts may be together, in UTF-8 bytes (default the channel's bound, 8 MiB). */
  readonly maxBytes?: number;
  readonly onRejected?: (rejection: SurfaceRejection) => void;
  /** Height in CSS pixels before the view says its size (default 240). */
  readonly initialHeight?: number;
  /** The most a size change may ask for here (default 1,200 CSS pixels). */
  readonly maxHeight?: number;
  /**
   * Origins the view may connect to (fetch, XHR, WebSocket, EventSource, beacons): those of its declared
   * `connectDomains` that the user granted, and no other. Each must be one origin as
   * `mcpViewConnectSourceProblem` of `@lineup/shared/protocol` allows (`https://api.example.com`,
   * `wss://*.example.com:443`; `http:` only on the loopback host; never a keyword); a `TypeError` says which is not.
   * None by default. A view granted any gets a frame loaded for it: a spare frame's policy grants nothing.
   */
  readonly connectDomains?: readonly string[];
  /**
   * Origins the view may load images, styles, fonts and media from (never scripts): those of its declared
   * `resourceDomains` that the user granted, each as `mcpViewResourceSourceProblem` allows (`https:`; `http:` only on
   * the loopback host). None by default; a view granted any gets a frame loaded for it. Give the same list to
   * `mcpViewBundle`, so that a stylesheet the view links from one of them is kept.
   */
  readonly resourceDomains?: readonly string[];
  /**
   * Device features the view may use (of its declared `_meta.ui.permissions`, those the user granted):
   * `geolocation`, `clipboard-write` (`MCP_VIEW_GRANTABLE_DEVICES`; a `TypeError` names another). Both of its frames
   * delegate them (`allow="geolocation *"`); none by default. The browser still asks the user for the host page.
   */
  readonly devices?: readonly McpViewDevice[];
  /**
   * What the view's `localStorage` holds when its scripts start: `[key, value]` pairs as `onStorage` last gave them
   * (`McpViewStorageSchema` of `@lineup/shared/bridge`; a `TypeError` says what is wrong). Empty by default.
   */
  readonly storage?: McpViewStorage;
  /**
   * The whole of the view's `localStorage` after it changed it (checked, in insertion order), at most once per
   * 100 ms: keep it, and give it back as `storage` when the view is mounted again. A view's storage is its own
   * state — never anything it sends the host.
   */
  readonly onStorage?: (entries: McpViewStorage) => void;
  /**
   * The user pressed Escape in the view (the host sees no key of its frame): leave a mode you gave it, such as full
   * screen. Every Escape is told, whatever the view does with it.
   */
  readonly onEscape?: () => void;
}

export interface McpViewHandle {
  readonly instanceId: string;
  readonly frame: HTMLIFrameElement;
  readonly ready: boolean;
  readonly closed: boolean;
  /** The view's end of the JSON-RPC channel, for the MCP Apps SDK's `AppBridge`. */
  readonly transport: McpViewTransport;
  /** Sets the frame's height (from the view's `ui/notifications/size-changed`): clamped, loop-safe. */
  resize(height: number): void;
  /**
   * Moves the view's frame to the end of `container` without reloading it (`Element.moveBefore`): the view keeps
   * its document, its state and its channel. A view from `prepareMcpView` leaves its hidden holder. Throws a
   * `TypeError` where the browser cannot move a frame without reloading it, or when the view is closed.
   */
  moveTo(container: HTMLElement): void;
  /** Removes the frame; the transport closes (its `onclose` runs). Calling it again does nothing. */
  close(): void;
}

/** Mounts an MCP App view in `container`. Throws `LineUpProtocolError` for a view a frame cannot run. */
export function mountMcpView(container: HTMLElement, options: MountMcpViewOptions): McpViewHandle {
  const connectSources = [...new Set((options.connectDomains ?? []).map(mcpViewConnectSource))];
  const resourceSourcesOfView = resourceSources(options.resourceDomains);
  const devices = [...new Set(options.devices ?? [])];
  for (const device of devices)
    if (!(MCP_VIEW_GRANTABLE_DEVICES as readonly string[]).includes(device))
      throw new TypeError(
        `${JSON.stringify(String(device).slice(0, 64))}: a view may be granted ${MCP_VIEW_GRANTABLE_DEVICES.join(' or ')} only.`,
      );
  let storage: McpViewStorage | undefined;
  if (options.storage !== undefined) {
    const checked = McpViewStorageSchema.safeParse(options.storage);
    if (!checked.success)
      throw new TypeError(
        `The view's storage: ${checked.error.issues[0]?.message ?? 'not [key, value] pairs of strings'}`,
      );
    storage = checked.data;
  }
  const waiting: McpJsonRpcMessage[] = [];
  let transportClosed = false;
  const transport: McpViewTransport = {
    async start() {},
    async send(message) {
      if (transportClosed || frame.closed) throw new Error('The view is closed.');
      frame.sendView(message);
    },
    async close() {
      handle.close();
    },
  };
  const deliver = (message: McpJsonRpcMessage) => {
    if (transport.onmessage === undefined) waiting.push(message);
    else transport.onmessage(message);
  };
  const frame = mountSurfaceFrame(
    container,
    {
      instanceId: options.instanceId,
      bundle: { name: options.name, html: options.view.html, css: options.view.css, js: options.view.js },
      state: {},
      onEvent: () => {},
      ...(options.onRejected === undefined ? {} : { onRejected: options.onRejected }),
      ...(options.initialHeight === undefined ? {} : { initialHeight: options.initialHeight }),
      ...(options.maxHeight === undefined ? {} : { maxHeight: options.maxHeight }),
    },
    {
      modules: options.view.modules,
      maxBytes: options.maxBytes ?? MCP_VIEW_CHANNEL_LIMITS.maxViewBytes,
      onMessage: deliver,
      ...(connectSources.length === 0 ? {} : { connectSources }),
      ...(resourceSourcesOfView.length === 0 ? {} : { resourceSources: resourceSourcesOfView }),
      ...(devices.length === 0 ? {} : { devices }),
      ...(storage === undefined || storage.length === 0 ? {} : { storage }),
      ...(options.onStorage === undefined ? {} : { onStorage: options.onStorage }),
      ...(options.onEscape === undefined ? {} : { onEscape: options.onEscape }),
    },
  );
  // Messages that came before the bridge connected are handed on once it listens.
  let onmessage: McpViewTransport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    get: () => onmessage,
    set: (listener: McpViewTransport['onmessage']) => {
      onmessage = listener;
      if (listener !== undefined) for (const message of waiting.splice(0)) listener(message);
    },
    enumerable: true,
  });
  const handle: McpViewHandle = {
    instanceId: options.instanceId,
    frame: frame.frame,
    get ready() {
      return frame.ready;
    },
    get closed() {
      return frame.closed;
    },
    transport,
    resize: (height) => frame.resize(height),
    moveTo(target) {
      if (frame.closed) throw new TypeError('The view is closed.');
      if (!canMoveFrames(target.ownerDocument))
        throw new TypeError('This browser cannot move a frame without reloading it (Element.moveBefore).');
      const from = frame.frame.parentElement;
      (target as HTMLElement & { moveBefore(node: Node, child: Node | null): void }).moveBefore(
        frame.frame,
        null,
      );
      if (from?.hasAttribute(PREPARED_VIEW_ATTRIBUTE) && from.childElementCount === 0) from.remove();
    },
    close() {
      if (transportClosed) return;
      transportClosed = true;
      const from = frame.frame.parentElement;
      frame.close();
      if (from?.hasAttribute(PREPARED_VIEW_ATTRIBUTE) && from.childElementCount === 0) from.remove();
      transport.onclose?.();
    },
  };
  return handle;
}

/** Marks the hidden holder of a view mounted ahead (`prepareMcpView`). */
const PREPARED_VIEW_ATTRIBUTE = 'data-lineup-prepared-view';

export interface PrepareMcpViewOptions extends MountMcpViewOptions {
  /** The width in CSS pixels the view is laid out at while it waits: that of where it will be shown. */
  readonly width?: number;
}

/**
 * Mounts an MCP App view ahead of its use, out of sight: in a holder in the viewport but transparent, behind the
 * page, inert (nothing in it takes focus or a click) and out of the accessibility tree — the holder spare frames
 * use. There it loads, runs and speaks over its port like any mounted view, in the same frames and containment; its
 * host can connect a bridge and answer its `ui/initialize` at once. `handle.moveTo(container)` shows it later
 * without reloading it; `handle.close()` discards it with its holder. Returns null where the browser cannot move a
 * frame without reloading it (`Element.moveBefore` missing: mount it with `mountMcpView` when it is needed). Throws
 * `LineUpProtocolError` for a view a frame cannot run, as `mountMcpView` does.
 */
export function prepareMcpView(document: Document, options: PrepareMcpViewOptions): McpViewHandle | null {
  if (!canMoveFrames(document) || document.body === null) return null;
  const width = options.width !== undefined && options.width > 0 ? `${Math.round(options.width)}px` : '100%';
  const holder = hiddenHolder(document, PREPARED_VIEW_ATTRIBUTE, width);
  document.body.appendChild(holder);
  try {
    return mountMcpView(holder, {
      ...options,
      // A view removed for what it did (a navigation, a flood) leaves no empty holder behind.
      onRejected: (rejection) => {
        if (
          (rejection.reason === 'navigated' || rejection.reason === 'flooded') &&
          holder.childElementCount === 0
        )
          holder.remove();
        options.onRejected?.(rejection);
      },
    });
  } catch (error) {
    holder.remove();
    throw error;
  }
}
