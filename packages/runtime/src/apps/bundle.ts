/**
 * Verified MiniApp bundles (seed 000 §2.7, §6 M2): every file a manifest lists is fetched and checked — its size
 * and its SHA-256 (WebCrypto) against the manifest — before anything is kept; the verified files are kept in the
 * runtime database, and checked again before every mount. A failed check names the file and both digests.
 */
import {
  BUNDLE_LIMITS,
  integrityOfDigest,
  MINIAPP_MANIFEST_FILE_NAME,
  type MiniAppManifest,
  parseMiniAppManifest,
} from '@lineup/shared/protocol';

/** Why a bundle was refused. */
export type BundleIntegrityErrorCode =
  | 'no_integrity'
  | 'fetch_failed'
  | 'missing_file'
  | 'size_mismatch'
  | 'digest_mismatch';

export class BundleIntegrityError extends Error {
  override readonly name = 'BundleIntegrityError';
  readonly code: BundleIntegrityErrorCode;
  /** The file concerned (bundle-relative), when one is. */
  readonly path: string | undefined;
  /** What the manifest lists and what was found: `sha256-…` digests, or sizes for `size_mismatch`. */
  readonly expected: string | undefined;
  readonly actual: string | undefined;
  constructor(
    code: BundleIntegrityErrorCode,
    message: string,
    details: { readonly path?: string; readonly expected?: string; readonly actual?: string } = {},
  ) {
    super(message);
    this.code = code;
    this.path = details.path;
    this.expected = details.expected;
    this.actual = details.actual;
  }
}

/** `sha256-<base64>` of `bytes`, by WebCrypto. */
export async function digestIntegrity(bytes: Uint8Array): Promise<string> {
  return integrityOfDigest(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource)));
}

/** Checks one file against its manifest entry; throws `BundleIntegrityError` naming it and both digests. */
async function checkFile(
  file: { path: string; size: number; integrity: string },
  bytes: Uint8Array | undefined,
) {
  if (bytes === undefined)
    throw new BundleIntegrityError('missing_file', `The bundle has no ${file.path}.`, {
      path: file.path,
      expected: file.integrity,
    });
  if (bytes.length !== file.size)
    throw new BundleIntegrityError(
      'size_mismatch',
      `${file.path} is ${bytes.length} bytes; the manifest says ${file.size}.`,
      { path: file.path, expected: String(file.size), actual: String(bytes.length) },
    );
  const actual = await digestIntegrity(bytes);
  if (actual !== file.integrity)
    throw new BundleIntegrityError(
      'digest_mismatch',
      `${file.path} does not match the manifest: expected ${file.integrity}, found ${actual}.`,
      { path: file.path, expected: file.integrity, actual },
    );
}

/** Checks every listed file (`read` gives its bytes, or undefined when missing); resolves with the bytes by path. */
export async function verifyBundleFiles(
  manifest: MiniAppManifest,
  read: (path: string) => Promise<Uint8Array | undefined>,
): Promise<ReadonlyMap<string, Uint8Array>> {
  if (manifest.files === undefined)
    throw new BundleIntegrityError(
      'no_integrity',
      `${manifest.id} ${manifest.version} lists no files with digests; it cannot be verified.`,
    );
  const verified = new Map<string, Uint8Array>();
  for (const file of manifest.files) {
    const bytes = await read(file.path);
    await checkFile(file, bytes);
    verified.set(file.path, bytes as Uint8Array);
  }
  return verified;
}

export interface FetchedBundle {
  readonly manifest: MiniAppManifest;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/**
 * Fetches a bundle from `bundleUrl` (its manifest, then every listed file, relative to it) and verifies it; nothing
 * is kept here. A network failure is `fetch_failed`; an invalid manifest throws `LineUpProtocolError`.
 */
export async function fetchVerifiedBundle(
  bundleUrl: string | URL,
  fetchImpl: (url: URL) => Promise<Response> = (url) => fetch(url),
): Promise<FetchedBundle> {
  const base = new URL(bundleUrl);
  const get = async (path: string): Promise<Response | undefined> => {
    const url = new URL(path, base);
    let response: Response;
    try {
      response = await fetchImpl(url);
    } catch (error) {
      throw new BundleIntegrityError(
        'fetch_failed',
        `${path} could not be fetched: ${(error as Error).message}`,
        {
          path,
        },
      );
    }
    if (response.status === 404) return undefined;
    if (!response.ok)
      throw new BundleIntegrityError(
        'fetch_failed',
        `${path} could not be fetched (HTTP ${response.status}).`,
        {
          path,
        },
      );
    return response;
  };
  const manifestResponse = await get(MINIAPP_MANIFEST_FILE_NAME);
  if (manifestResponse === undefined)
    throw new BundleIntegrityError('fetch_failed', `The bundle at ${base.href} has no manifest.`, {
      path: MINIAPP_MANIFEST_FILE_NAME,
    });
  const manifest = parseMiniAppManifest(await manifestResponse.json());
  const files = await verifyBundleFiles(manifest, async (path) => {
    const response = await get(path);
    if (response === undefined) return undefined;
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > BUNDLE_LIMITS.maxFileBytes)
      throw new BundleIntegrityError('size_mismatch', `${path} is larger than a bundle file may be.`, {
        path,
      });
    return bytes;
  });
  return { manifest, files };
}
