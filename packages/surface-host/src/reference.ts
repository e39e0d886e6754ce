/**
 * Surfaces by reference (seed 000 §5.1): an installed app's declared Surface, which an agent opens by app id
 * and surface id, never with code of its own. The host reads the Surface's entry HTML from the app's kept,
 * verified files and turns it into the same three texts an inline Surface has — so it runs under the same
 * sandbox, policy, containment and bridge — and passes only the events the Surface declares.
 *
 * The entry is an HTML file of the bundle (`surfaces/focus.html`). Its body is the Surface's HTML; its
 * stylesheets (`<link rel="stylesheet" href>` and `<style>`) become the CSS and its scripts (`<script src>`,
 * classic, in document order) the JS, read from the bundle's files. Images it names by path become `data:`
 * URLs of their bytes (the policy allows `img-src data:`). Everything else is refused with the reason, before
 * anything is mounted: a module script (a Surface's JS runs as one classic script), an inline script (the
 * frame's policy would never run it), a file the bundle does not have, a reference outside it, or more than
 * 160 KiB of HTML, CSS and JS together.
 */
import { LineUpProtocolError, type UIIssue } from '@lineup/shared';
import { SURFACE_CHANNEL_LIMITS } from '@lineup/shared/bridge';
import { bundleDataUrl, resolveBundlePath } from '@lineup/shared/protocol';
import type { SurfaceBundleText } from './documents.js';
import { checkSurfaceBundle, surfaceBundleBytes } from './surface-frame.js';

/** A declared Surface of an installed app, ready to mount: its texts, its name, and the events it declares. */
export interface ReferencedSurface {
  /** The frame's accessible name (the app's name, or the app's and the Surface's). */
  readonly name: string;
  readonly bundle: SurfaceBundleText;
  /** The events the Surface declares in the manifest (and the inventory): no other event reaches the agent. */
  readonly events: readonly string[];
}

const IMAGE_EXTENSIONS = new Set(['svg', 'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif']);

function refuse(path: string, message: string): never {
  const issue: UIIssue = { path, code: 'invalid_value', message };
  throw new LineUpProtocolError([issue]);
}

/**
 * The texts of the Surface whose entry is `entry`, from the bundle's verified `files` (path → bytes). Throws
 * `LineUpProtocolError` (at the entry's path) for anything a Surface cannot hold; `TypeError` where
 * `DOMParser` is missing.
 */
export function surfaceBundleFromFiles(
  entry: string,
  files: ReadonlyMap<string, Uint8Array>,
): SurfaceBundleText {
  const page = files.get(entry);
  if (page === undefined) refuse(entry, `The bundle has no Surface entry ${entry}.`);
  const view = globalThis as { DOMParser?: typeof DOMParser };
  if (typeof view.DOMParser !== 'function') throw new TypeError('surfaceBundleFromFiles needs a DOMParser.');
  const decoder = new TextDecoder();
  // Parsed inert: DOMParser documents run no script and load nothing.
  const document = new view.DOMParser().parseFromString(decoder.decode(page), 'text/html');
  const read = (reference: string): { readonly path: string; readonly bytes: Uint8Array } => {
    const path = resolveBundlePath(entry, reference);
    if (path === null)
      refuse(entry, `${reference} is not a file of the bundle; a Surface loads nothing else.`);
    const bytes = files.get(path);
    if (bytes === undefined) refuse(entry, `${entry} names ${reference}, which the bundle does not have.`);
    return { path, bytes };
  };

  const css: string[] = [];
  const js: string[] = [];
  for (const element of document.querySelectorAll('link, style, script')) {
    const name = element.localName;
    if (name === 'style') css.push(element.textContent ?? '');
    else if (name === 'link') {
      const rel = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
      const href = element.getAttribute('href');
      if (rel.includes('stylesheet') && href !== null) css.push(decoder.decode(read(href).bytes));
      else if (!rel.includes('icon'))
        refuse(entry, `A Surface loads nothing by <link rel="${rel.join(' ')}">; only stylesheets are read.`);
    } else {
      const type = (element.getAttribute('type') ?? '').trim().toLowerCase();
      if (type === 'module')
        refuse(
          entry,
          'A Surface script runs as one classic script: <script type="module"> is not supported.',
        );
      if (type !== '' && type !== 'text/javascript')
        refuse(entry, `A Surface script of type ${type} is not supported.`);
      const src = element.getAttribute('src');
      if (src === null)
        refuse(entry, "An inline <script> never runs in a Surface (the frame's policy); put it in a file.");
      js.push(decoder.decode(read(src).bytes));
    }
    element.remove();
  }
  for (const image of document.querySelectorAll('img[src]')) {
    const src = image.getAttribute('src') as string;
    if (resolveBundlePath(entry, src) === null) continue; // data: and the like; the policy decides
    const { path, bytes } = read(src);
    if (!IMAGE_EXTENSIONS.has(path.slice(path.lastIndexOf('.') + 1).toLowerCase()))
      refuse(entry, `${src} is not an image a Surface can show.`);
    image.setAttribute('src', bundleDataUrl(path, bytes));
  }
  const bundle: SurfaceBundleText = {
    html: document.body.innerHTML.trim(),
    css: css.join('\n'),
    js: js.join('\n;\n'),
  };
  const size = surfaceBundleBytes(bundle);
  if (size > SURFACE_CHANNEL_LIMITS.maxBundleBytes)
    refuse(
      entry,
      `The Surface is ${size} bytes of HTML, CSS and JS; at most ${SURFACE_CHANNEL_LIMITS.maxBundleBytes} are allowed.`,
    );
  try {
    checkSurfaceBundle(bundle);
  } catch (error) {
    if (!(error instanceof LineUpProtocolError)) throw error;
    refuse(entry, error.issues[0]?.message ?? 'The Surface holds markup a Surface can never have.');
  }
  return bundle;
}
