/**
 * A browser host's MiniApp frame: the installed app's page, built from its kept, verified files, in a Surface frame
 * of `@lineup/surface-host` (`mountMiniAppPage`) — the same wrapper, sandbox (`allow-scripts`, an opaque origin),
 * Content Security Policy and containment prelude as every Surface and MCP App view — wired to a
 * `MiniAppConnection`.
 *
 * What runs is what was verified: every script, stylesheet and image the entry names is read from the kept files
 * (`miniAppPageFromFiles`); a page that names a file the bundle lacks, or anything outside it, is refused before
 * anything mounts. The page reaches no network but the origins the host grants it (`connectDomains`), cannot
 * create frames, workers, objects or links, cannot navigate its frame (it is removed before the navigation leaves:
 * `onContained` hears `navigated`), and speaks only over the frame's `MessagePort`, bound to the one document the
 * host made: nothing is ever posted to a window, so no document it navigated to could hear its instance's messages.
 */
import { MINIAPP_INSTANCE_PARAMETER } from '@lineup/shared/bridge';
import { miniAppPageFromFiles, mountMiniAppPage, type SurfaceRejection } from '@lineup/surface-host';
import type { AppTarget, ToolRuntime } from '../execution/tool-runtime.js';
import { MiniAppConnection, type MiniAppConnectionOptions } from './miniapp-connection.js';

export interface MountMiniAppOptions extends MiniAppConnectionOptions {
  /** The page from kept files: the manifest's `entry` and the verified files by path (`AppRegistry.bundleFiles`). */
  readonly page: { readonly entry: string; readonly files: ReadonlyMap<string, Uint8Array> };
  /** The frame's accessible name (the app's name). */
  readonly title: string;
  /** Extra fragment parameters for the page, e.g. `{ lang: 'zh-CN' }`. */
  readonly parameters?: Readonly<Record<string, string>>;
  /**
   * Origins the page may connect to: those of its manifest's declared domains that the user granted, and no
   * other (`@lineup/surface-host` checks each). None by default.
   */
  readonly connectDomains?: readonly string[];
  /**
   * What the page's containment refused or undid (`@lineup/surface-host`'s `SurfaceRejection`): `navigated` means
   * the page tried to leave its document and was removed; `flooded`, that it flooded the host and was removed.
   */
  readonly onContained?: (rejection: SurfaceRejection) => void;
}

export interface MountedMiniApp {
  /** The host's frame (the page runs in the frame inside it). */
  readonly frame: HTMLIFrameElement;
  readonly connection: MiniAppConnection;
  /** Removes the frame and stops the connection (after a lifecycle close, or when the host leaves). */
  remove(): void;
}

/**
 * Mounts `target`'s page in `container` and connects it to `runtime`. Throws `LineUpProtocolError` (at the entry's
 * path) for a page that cannot be built from its files or held by a frame, before anything mounts.
 */
export function mountMiniAppFrame(
  container: HTMLElement,
  runtime: ToolRuntime,
  target: AppTarget,
  options: MountMiniAppOptions,
): MountedMiniApp {
  const page = miniAppPageFromFiles(options.page.entry, options.page.files);
  const fragment = new URLSearchParams({
    ...options.parameters,
    [MINIAPP_INSTANCE_PARAMETER]: target.instanceId,
  }).toString();
  let connection: MiniAppConnection | null = null;
  const handle = mountMiniAppPage(container, {
    instanceId: target.instanceId,
    name: options.title,
    page,
    fragment,
    // The connection parses it: anything but a valid message of this channel for this instance is refused.
    onMessage: (message) => void connection?.receive(message),
    ...(options.connectDomains === undefined ? {} : { connectDomains: options.connectDomains }),
    onRejected: (rejection) => {
      if (rejection.reason === 'navigated' || rejection.reason === 'flooded') connection?.close();
      options.onContained?.(rejection);
    },
  });
  connection = new MiniAppConnection(
    runtime,
    target,
    {
      post: (message) => {
        // A page the containment removed hears nothing more.
        if (!handle.closed) handle.send(message as unknown as Readonly<Record<string, unknown>>);
      },
    },
    options,
  );
  let removed = false;
  return {
    frame: handle.frame,
    connection,
    remove() {
      if (removed) return;
      removed = true;
      connection?.close();
      handle.close();
    },
  };
}
