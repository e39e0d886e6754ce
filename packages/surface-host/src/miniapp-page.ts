/**
 * An installed MiniApp's page in a Surface frame: the same wrapper, sandbox, CSP and containment as every Surface
 * and MCP App view, with `lineup.miniapp.v1` in place of `LineUpSurface` (`@lineup/shared` docs/protocol.md,
 * "MiniApp pages on the Surface channel").
 *
 * - `miniAppPageFromFiles(entry, files)` turns the app's entry HTML and its kept, verified files into what a frame
 *   runs: the body, the stylesheets' text, the classic scripts and the module scripts (each read from the bundle),
 *   with the images it names as `data:` URLs of their bytes. What runs is what was verified; a file the bundle
 *   does not have, a reference outside it, or markup a contained page cannot have is refused before anything is
 *   mounted.
 * - `mountMiniAppPage(container, options)` mounts it. The page's code sees a `window.parent` whose `postMessage`
 *   sends up the frame's port, hears the runtime's messages as `message` events from that parent, and reads its
 *   instance from its URL's fragment (set before its scripts run): what `@lineup/miniapp-sdk`'s client expects.
 *   Every message is bounded (`parseSurfacePageMessage`) and rate limited here; what it says is the runtime's to
 *   judge (`MiniAppConnection`). The channel is bound to the one document the host made: a page that navigates is
 *   removed before its navigation leaves, and nothing is ever posted to a window.
 * - By default the page reaches no network. `connectDomains` lists origins the user granted it (its manifest's
 *   declared domains), and `connect-src` admits exactly those.
 */
import { LineUpProtocolError } from '@lineup/shared';
import { MINIAPP_PAGE_CHANNEL_LIMITS } from '@lineup/shared/bridge';
import { bundleDataUrl, mcpViewConnectSource, resolveBundlePath } from '@lineup/shared/protocol';
import { CLASSIC_SCRIPT_TYPES, htmlRefusal, IGNORED_LINKS, shown } from './html-parts.js';
import { checkSurfaceBundle, mountSurfaceFrame, type SurfaceRejection } from './surface-frame.js';

/** What a frame runs of a MiniApp page. */
export interface MiniAppPageText {
  /** The body's markup, without its scripts and styles. */
  readonly html: string;
  /** Its stylesheets and `<style>` elements, in order. */
  readonly css: string;
  /** Its classic scripts, in order, as one script. */
  readonly js: string;
  /** Its module scripts, in order (run after the classic one). */
  readonly modules: readonly string[];
}

function refuse(path: string, message: string): never {
  throw htmlRefusal(path, message);
}

/**
 * The texts of the page whose entry is `entry`, from the bundle's verified `files` (path → bytes). Throws
 * `LineUpProtocolError` (at the entry's path) for what a contained page cannot hold: a script, stylesheet or
 * image the bundle does not have or that lies outside it (a page loads nothing by URL), a frame, an object, a
 * link in its body; `TypeError` where `DOMParser` is missing.
 */
export function miniAppPageFromFiles(entry: string, files: ReadonlyMap<string, Uint8Array>): MiniAppPageText {
  const page = files.get(entry);
  if (page === undefined) refuse(entry, `The bundle has no entry page ${entry}.`);
  const view = globalThis as { DOMParser?: typeof DOMParser };
  if (typeof view.DOMParser !== 'function') throw new TypeError('miniAppPageFromFiles needs a DOMParser.');
  const decoder = new TextDecoder();
  // Parsed inert: a DOMParser document runs no script and loads nothing.
  const document = new view.DOMParser().parseFromString(decoder.decode(page), 'text/html');
  const read = (reference: string): { readonly path: string; readonly bytes: Uint8Array } => {
    const path = resolveBundlePath(entry, reference);
    if (path === null)
      refuse(entry, `${shown(reference)} is not a file of the bundle; a MiniApp page loads nothing else.`);
    const bytes = files.get(path);
    if (bytes === undefined)
      refuse(entry, `${entry} names ${shown(reference)}, which the bundle does not have.`);
    return { path, bytes };
  };
  const css: string[] = [];
  const classic: string[] = [];
  const modules: string[] = [];
  for (const element of [...document.querySelectorAll('link, style, script')]) {
    const name = element.localName;
    if (name === 'style') css.push(element.textContent ?? '');
    else if (name === 'link') {
      const rel = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const href = element.getAttribute('href');
      if (rel.includes('stylesheet')) {
        if (href === null) refuse(entry, 'A <link rel="stylesheet"> without an href names no file.');
        css.push(decoder.decode(read(href).bytes));
      } else if (rel.length === 0 || !rel.every((value) => IGNORED_LINKS.has(value)))
        refuse(
          entry,
          `A MiniApp page loads nothing by <link rel="${rel.join(' ')}">; only stylesheets are read.`,
        );
    } else {
      const type = (element.getAttribute('type') ?? '').trim().toLowerCase();
      const src = element.getAttribute('src');
      const text = src === null ? (element.textContent ?? '') : decoder.decode(read(src).bytes);
      if (type === 'module') modules.push(text);
      else if (CLASSIC_SCRIPT_TYPES.has(type)) classic.push(text);
      else continue; // A data block (JSON): inert, it stays in the markup.
    }
    element.remove();
  }
  for (const image of [...document.querySelectorAll('img[src]')]) {
    const src = image.getAttribute('src') as string;
    if (resolveBundlePath(entry, src) === null) continue; // data: and the like; the policy decides
    const { path, bytes } = read(src);
    image.setAttribute('src', bundleDataUrl(path, bytes));
  }
  const text: MiniAppPageText = {
    html: document.body.innerHTML.trim(),
    css: css.join('\n'),
    js: classic.join('\n;\n'),
    modules,
  };
  try {
    checkSurfaceBundle(text);
  } catch (error) {
    if (!(error instanceof LineUpProtocolError)) throw error;
    refuse(entry, error.issues[0]?.message ?? 'The page holds markup a contained page can never have.');
  }
  return text;
}

export interface MountMiniAppPageOptions {
  readonly instanceId: string;
  /** The app's name: the frame's accessible title. */
  readonly name: string;
  readonly page: MiniAppPageText;
  /**
   * What the page reads from its URL's fragment, as `URLSearchParams` text: `lineup-instance=<id>` and any
   * parameters (`lang=zh-CN`). At most `MINIAPP_PAGE_CHANNEL_LIMITS.maxFragmentLength` characters.
   */
  readonly fragment: string;
  /** Each message of the page: one JSON object within the bound, not yet judged (give it to the runtime). */
  readonly onMessage: (message: Readonly<Record<string, unknown>>) => void;
  /** What was refused or undone (a navigation removes the page: `navigated`). */
  readonly onRejected?: (rejection: SurfaceRejection) => void;
  /** The most the page's texts may be together, in UTF-8 bytes (default and most: `maxPageBytes`, 8 MiB). */
  readonly maxBytes?: number;
  /**
   * Origins the page may connect to (fetch, XHR, WebSocket, EventSource, beacons): those of its declared domains
   * that the user granted, and no other, each as `mcpViewConnectSourceProblem` of `@lineup/shared/protocol`
   * allows (a `TypeError` says which is not). None by default.
   */
  readonly connectDomains?: readonly string[];
}

export interface MiniAppPageHandle {
  readonly instanceId: string;
  /** The host's frame: it fills its container (the page runs in the frame inside it). */
  readonly frame: HTMLIFrameElement;
  /** Whether the page's document holds the channel. */
  readonly ready: boolean;
  readonly closed: boolean;
  /**
   * Sends one message to the page: checked against the channel's bound first (throws `LineUpProtocolError` and
   * sends nothing), then sent now, or once the frame is ready, in order. Throws `TypeError` once closed.
   */
  send(message: Readonly<Record<string, unknown>>): void;
  /** Removes the frame. Calling it again does nothing. */
  close(): void;
}

/**
 * Mounts a MiniApp page in `container`, contained like every Surface. Throws `LineUpProtocolError` for a page a
 * frame cannot run (too large, forbidden markup) and `TypeError` for a fragment or a domain it cannot take.
 */
export function mountMiniAppPage(
  container: HTMLElement,
  options: MountMiniAppPageOptions,
): MiniAppPageHandle {
  if (options.fragment.length > MINIAPP_PAGE_CHANNEL_LIMITS.maxFragmentLength)
    throw new TypeError(
      `mountMiniAppPage: the fragment is ${options.fragment.length} characters; at most ${MINIAPP_PAGE_CHANNEL_LIMITS.maxFragmentLength}.`,
    );
  const connectSources = [...new Set((options.connectDomains ?? []).map(mcpViewConnectSource))];
  const frame = mountSurfaceFrame(
    container,
    {
      instanceId: options.instanceId,
      bundle: { name: options.name, html: options.page.html, css: options.page.css, js: options.page.js },
      state: {},
      onEvent: () => {},
      ...(options.onRejected === undefined ? {} : { onRejected: options.onRejected }),
    },
    {
      protocol: 'miniapp',
      modules: options.page.modules,
      maxBytes: options.maxBytes ?? MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes,
      fragment: options.fragment,
      onMessage: options.onMessage,
      ...(connectSources.length === 0 ? {} : { connectSources }),
    },
  );
  // A page is the app's whole view: it fills its place, and says no size.
  frame.frame.style.height = '100%';
  return {
    instanceId: options.instanceId,
    frame: frame.frame,
    get ready() {
      return frame.ready;
    },
    get closed() {
      return frame.closed;
    },
    send(message) {
      if (frame.closed) throw new TypeError(`The page of ${options.instanceId} is closed.`);
      frame.sendView(message);
    },
    close: () => frame.close(),
  };
}
