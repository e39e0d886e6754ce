/**
 * A browser host's MiniApp frame: the installed app's page in `<iframe sandbox="allow-scripts">` — an opaque
 * origin, so it cannot read the host's storage, cookies or DOM — with `#lineup-instance=<id>` on its URL, and
 * wired to a `MiniAppConnection`. Only messages whose `event.source` is this frame's window reach the
 * connection; everything it posts goes to that window only.
 *
 * The page comes from the app's kept, verified files (`page`: `miniAppPageDocument` builds its `srcdoc`, so what
 * runs is what was verified), or — for development — from a URL the host serves (`url`; its server must answer
 * the page's module requests, which carry `Origin: null`, with `Access-Control-Allow-Origin`).
 */
import { MINIAPP_INSTANCE_PARAMETER } from '@lineup/shared/bridge';
import type { AppTarget, ToolRuntime } from '../execution/tool-runtime.js';
import { miniAppPageDocument } from './bundle-document.js';
import { MiniAppConnection, type MiniAppConnectionOptions } from './miniapp-connection.js';

export interface MountMiniAppOptions extends MiniAppConnectionOptions {
  /** The page's URL: the app's bundle URL joined with its manifest `entry` (when `page` is not given). */
  readonly url?: string | URL;
  /** The page from kept files: the manifest's `entry` and the verified files by path (`AppRegistry.bundleFiles`). */
  readonly page?: { readonly entry: string; readonly files: ReadonlyMap<string, Uint8Array> };
  /** The frame's accessible name (the app's name). */
  readonly title: string;
  /** Extra fragment parameters for the page, e.g. `{ lang: 'zh-CN' }`. */
  readonly parameters?: Readonly<Record<string, string>>;
}

export interface MountedMiniApp {
  readonly frame: HTMLIFrameElement;
  readonly connection: MiniAppConnection;
  /** Removes the frame and stops the connection (after a lifecycle close, or when the host leaves). */
  remove(): void;
}

/** The page URL with the instance id (and any `parameters`) in its fragment. */
export function miniAppPageUrl(
  url: string | URL,
  instanceId: string,
  parameters: Readonly<Record<string, string>> = {},
): string {
  const page = new URL(url, globalThis.document?.baseURI);
  const fragment = new URLSearchParams({ ...parameters, [MINIAPP_INSTANCE_PARAMETER]: instanceId });
  page.hash = fragment.toString();
  return page.href;
}

/** Mounts `target`'s page in `container` and connects it to `runtime`. */
export function mountMiniAppFrame(
  container: HTMLElement,
  runtime: ToolRuntime,
  target: AppTarget,
  options: MountMiniAppOptions,
): MountedMiniApp {
  const view = container.ownerDocument.defaultView;
  if (view === null) throw new TypeError('mountMiniAppFrame: the container is not in a window.');
  const frame = container.ownerDocument.createElement('iframe');
  // No allow-same-origin: the page runs at an opaque origin. No forms, popups, top navigation or modals.
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.title = options.title;
  if (options.page !== undefined)
    frame.srcdoc = miniAppPageDocument(options.page.entry, options.page.files, {
      ...options.parameters,
      [MINIAPP_INSTANCE_PARAMETER]: target.instanceId,
    });
  else if (options.url !== undefined)
    frame.src = miniAppPageUrl(options.url, target.instanceId, options.parameters);
  else throw new TypeError('mountMiniAppFrame: give the page (kept files) or its url.');
  const connection = new MiniAppConnection(
    runtime,
    target,
    {
      // An opaque origin cannot be named, so `*`; the window itself is the address.
      post: (message) => frame.contentWindow?.postMessage(message, '*'),
    },
    options,
  );
  const onMessage = (event: MessageEvent) => {
    if (event.source === null || event.source !== frame.contentWindow) return;
    // The connection parses it: anything but a valid message of this channel for this instance is refused.
    void connection.receive(event.data);
  };
  view.addEventListener('message', onMessage);
  container.append(frame);
  let removed = false;
  return {
    frame,
    connection,
    remove() {
      if (removed) return;
      removed = true;
      view.removeEventListener('message', onMessage);
      connection.close();
      frame.remove();
    },
  };
}
