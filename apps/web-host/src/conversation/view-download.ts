/**
 * What a view's `ui/download-file` may save: the host saves through its `artifact.save` capability (a text file the
 * user confirms, of one of four types, at most 32,768 characters), so a request is mapped onto that capability's
 * arguments or refused with why — never widened. One embedded text resource per request; its name is the last part
 * of its URI. A resource link (which the host would fetch) and binary contents are refused: a view reaches nothing
 * through the host that it could not reach itself.
 */

/** The media types `artifact.save` writes, by the extensions that name them when a resource gives no type. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
};
/** The most characters `artifact.save` takes. */
export const VIEW_DOWNLOAD_MAX_CHARS = 32_768;
/** The longest file name `artifact.save` takes. */
const MAX_FILENAME = 128;

export type ViewDownload =
  | {
      readonly ok: true;
      readonly args: { readonly filename: string; readonly content: string; readonly media_type: string };
    }
  | { readonly ok: false; readonly reason: string };

const refused = (reason: string): ViewDownload => ({ ok: false, reason });

/** The file name `artifact.save` accepts for `uri`'s last part, or undefined when nothing of it is left. */
function filenameOf(uri: string): string | undefined {
  let path: string;
  try {
    // The path's last part: not the host of `ui://server/`, not a query or fragment.
    path = new URL(uri).pathname;
  } catch {
    path = uri.split(/[?#]/)[0] ?? '';
  }
  let last = path.split('/').at(-1) ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // Kept as written.
  }
  const name = last
    .replace(/[^A-Za-z0-9 ._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, MAX_FILENAME)
    .trim();
  return name === '' ? undefined : name;
}

/** The `artifact.save` arguments for a view's `ui/download-file` contents, or why they cannot be saved. */
export function viewDownload(contents: readonly unknown[]): ViewDownload {
  if (contents.length !== 1)
    return refused(`This host saves one file per request; this one has ${contents.length}.`);
  const item = contents[0] as { type?: unknown; resource?: Record<string, unknown> } | null;
  if (item?.type === 'resource_link')
    return refused('This host does not fetch a linked resource for a view: embed the file in the request.');
  const resource = item?.type === 'resource' ? item.resource : undefined;
  if (resource === undefined || typeof resource !== 'object' || resource === null)
    return refused('The request holds no embedded resource.');
  if (typeof resource.text !== 'string')
    return refused('This host saves text files only (plain text, Markdown, CSV, JSON); this one is binary.');
  const uri = typeof resource.uri === 'string' ? resource.uri : '';
  const filename = filenameOf(uri);
  if (filename === undefined)
    return refused(`No file name can be made from its URI ${JSON.stringify(uri.slice(0, 200))}.`);
  const declared =
    typeof resource.mimeType === 'string' ? resource.mimeType.split(';')[0]?.trim().toLowerCase() : undefined;
  const extension = filename.includes('.') ? filename.split('.').at(-1)?.toLowerCase() : undefined;
  const mediaType =
    declared !== undefined && declared !== ''
      ? declared
      : Object.keys(MEDIA_TYPES).find((type) => MEDIA_TYPES[type] === extension);
  if (mediaType === undefined || MEDIA_TYPES[mediaType] === undefined)
    return refused(
      `This host saves plain text, Markdown, CSV or JSON; this file is ${mediaType === undefined ? 'of no known type' : mediaType}.`,
    );
  if (resource.text.length > VIEW_DOWNLOAD_MAX_CHARS)
    return refused(
      `The file is ${resource.text.length} characters; this host saves at most ${VIEW_DOWNLOAD_MAX_CHARS}.`,
    );
  return { ok: true, args: { filename, content: resource.text, media_type: mediaType } };
}
