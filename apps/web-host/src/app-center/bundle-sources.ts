/**
 * Where a bundle may be installed from — a URL on this page's own origin, a dev server on this machine, a folder
 * the user picked — and where an installed app came from.
 */
import type { AppRecord } from '@lineup/runtime';
import { MINIAPP_MANIFEST_FILE_NAME } from '@lineup/shared/protocol';
import type { AppCenterProblem } from './problems.ts';

/** Where an app was installed from: a MiniApp's bundle URL, an MCP server's URL. */
export function appSource(record: AppRecord): string {
  return record.kind === 'mcp_server' ? record.manifest.server.url : record.bundleUrl;
}

/**
 * The bundle base URL a user typed, resolved against the page: only http(s) on this page's own origin — the
 * reference host sets no bundle policy (`BundlePolicy`), so it installs only what its own server serves; a
 * production host would pass a policy and could accept signed bundles from elsewhere. The manifest's own URL is
 * accepted for its folder, and a folder URL gets its closing slash (the files are relative to it).
 */
export function sameOriginBundleUrl(input: string, baseUri: string): URL | AppCenterProblem {
  let url: URL;
  try {
    url = new URL(input.trim(), baseUri);
  } catch {
    return { kind: 'invalid_url' };
  }
  if (input.trim() === '' || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return { kind: 'invalid_url' };
  const origin = new URL(baseUri).origin;
  if (url.origin !== origin) return { kind: 'other_origin', origin };
  url.hash = '';
  url.search = '';
  if (url.pathname.endsWith(`/${MINIAPP_MANIFEST_FILE_NAME}`))
    url.pathname = url.pathname.slice(0, -MINIAPP_MANIFEST_FILE_NAME.length);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * A MiniApp's dev bundle (`@lineup/miniapp-sdk`'s `/__lineup/bundle/` on the author's `vite`): an http(s) URL on
 * this machine only — `localhost`, `127.0.0.1` or `[::1]` — as a base URL (a trailing `lineup.manifest.json` is
 * dropped). Its files are verified like any bundle's; what it may not be is another machine's.
 */
export function devBundleUrl(input: string): URL | AppCenterProblem {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { kind: 'invalid_url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'invalid_url' };
  if (!['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return { kind: 'dev_not_local' };
  url.hash = '';
  url.search = '';
  url.username = '';
  url.password = '';
  if (url.pathname.endsWith(`/${MINIAPP_MANIFEST_FILE_NAME}`))
    url.pathname = url.pathname.slice(0, -MINIAPP_MANIFEST_FILE_NAME.length);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * The files of a picked folder by their path inside it: `webkitRelativePath` starts with the folder's own name
 * (`dist/assets/app.js`), which is not part of the bundle, so it is stripped (`assets/app.js`). A file without a
 * relative path (picked on its own) keeps its name.
 */
export function pickedFolderFiles(files: Iterable<File>): {
  readonly folder: string;
  readonly files: ReadonlyMap<string, Blob>;
} {
  const byPath = new Map<string, Blob>();
  let folder = '';
  for (const file of files) {
    // Empty (or absent outside browsers) for a file picked on its own.
    const relative = file.webkitRelativePath ?? '';
    const slash = relative.indexOf('/');
    if (slash < 0) byPath.set(file.name, file);
    else {
      folder ||= relative.slice(0, slash);
      byPath.set(relative.slice(slash + 1), file);
    }
  }
  return { folder, files: byPath };
}
