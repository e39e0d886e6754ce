/**
 * A MiniApp page built from its kept, verified files (issue 12: what runs is what was verified). The host loads
 * it as the `srcdoc` of the app's sandboxed frame, so nothing of the app is fetched from its URL again: the
 * entry HTML is parsed (inert, by `DOMParser`), and each script, stylesheet, image and icon it names by a
 * relative path becomes a `data:` URL of that file's verified bytes. A Content Security Policy lets the page
 * run only those (`script-src data:`) and connect nowhere (`default-src 'none'`).
 *
 * What a page loaded this way cannot do, and the SDK's Vite plugin refuses at build time: import other chunks
 * (a module from a `data:` URL has no base to resolve `./chunk.js` against), or reach files by URL at run time
 * (`fetch('./data.json')`, `new URL('./x.png', import.meta.url)`). A reference to a file the bundle does not
 * list is refused before anything is mounted.
 */
import { MINIAPP_INSTANCE_PARAMETER } from '@lineup/shared/bridge';
import { bundleDataUrl, resolveBundlePath } from '@lineup/shared/protocol';
import { BundleIntegrityError } from '../apps/bundle.js';

/** The policy of a page built from kept files: its own files' `data:` URLs, inline styles, no network. */
export const MINIAPP_PAGE_CSP =
  "default-src 'none'; script-src data:; style-src data: 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; base-uri 'none'; form-action 'none'";

/**
 * The `srcdoc` of the page at `entry` of a bundle, from its verified `files` (path → bytes). `fragment` is what
 * the page would have read from its URL's fragment (`lineup-instance=<id>&lang=…`): it is set on the document's
 * URL before any of the app's scripts run. Throws `BundleIntegrityError` (`missing_file`) when the page names a
 * file the bundle does not have, and `TypeError` where `DOMParser` is missing.
 */
export function miniAppPageDocument(
  entry: string,
  files: ReadonlyMap<string, Uint8Array>,
  fragment: Readonly<Record<string, string>>,
): string {
  const page = files.get(entry);
  if (page === undefined)
    throw new BundleIntegrityError('missing_file', `The bundle has no entry page ${entry}.`, { path: entry });
  if (typeof DOMParser !== 'function') throw new TypeError('miniAppPageDocument needs a DOMParser.');
  const document = new DOMParser().parseFromString(new TextDecoder().decode(page), 'text/html');
  const inline = (element: Element, attribute: string) => {
    const reference = element.getAttribute(attribute);
    if (reference === null) return;
    const path = resolveBundlePath(entry, reference);
    if (path === null) return;
    const bytes = files.get(path);
    if (bytes === undefined)
      throw new BundleIntegrityError(
        'missing_file',
        `${entry} names ${reference}, which the bundle does not have.`,
        {
          path,
        },
      );
    element.setAttribute(attribute, bundleDataUrl(path, bytes));
    element.removeAttribute('crossorigin');
    element.removeAttribute('integrity');
  };
  for (const script of Array.from(document.querySelectorAll('script[src]'))) inline(script, 'src');
  for (const link of Array.from(document.querySelectorAll('link[href]'))) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (rel.includes('stylesheet') || rel.includes('icon')) inline(link, 'href');
    // Preloads of chunks and anything else a link could fetch: the page has its files already.
    else link.remove();
  }
  for (const image of Array.from(document.querySelectorAll('img[src]'))) inline(image, 'src');
  const head = document.head;
  const policy = document.createElement('meta');
  policy.setAttribute('http-equiv', 'Content-Security-Policy');
  policy.setAttribute('content', MINIAPP_PAGE_CSP);
  // The instance id and parameters, on the document's URL (about:srcdoc) before the app's scripts run.
  const hash = new URLSearchParams(fragment);
  if (!hash.has(MINIAPP_INSTANCE_PARAMETER))
    throw new TypeError(`miniAppPageDocument: the fragment needs ${MINIAPP_INSTANCE_PARAMETER}.`);
  const bootstrap = document.createElement('script');
  bootstrap.setAttribute(
    'src',
    bundleDataUrl(
      'bootstrap.js',
      new TextEncoder().encode(
        `history.replaceState(null,'',location.href.split('#')[0]+${JSON.stringify(`#${hash.toString()}`)});`,
      ),
    ),
  );
  head.prepend(policy, bootstrap);
  return `<!doctype html>${document.documentElement.outerHTML}`;
}
