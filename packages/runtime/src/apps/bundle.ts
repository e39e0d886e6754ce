/**
 * Verified MiniApp bundles (seed 000 §2.7, §6 M2): every file a manifest lists is fetched and checked — its size
 * and its SHA-256 (WebCrypto) against the manifest — before anything is kept; the verified files are kept in the
 * runtime database, and checked again before every mount. A failed check names the file and both digests.
 */
import { LineUpError } from '@lineup/shared';
import {
  BUNDLE_LIMITS,
  BundleSignatureSchema,
  bundleSignatureMessage,
  integrityOfDigest,
  MINIAPP_MANIFEST_FILE_NAME,
  MINIAPP_SIGNATURE_FILE_NAME,
  type MiniAppManifest,
  manifestDigest,
  parseMiniAppManifest,
} from '@lineup/shared/protocol';

/** Why a bundle was refused. */
export type BundleIntegrityErrorCode =
  | 'no_integrity'
  | 'fetch_failed'
  | 'missing_file'
  | 'size_mismatch'
  | 'digest_mismatch'
  /** A host policy is set and the manifest is neither allow-listed nor signed by a trusted key. */
  | 'not_allowed'
  /** The signature file is malformed, or does not verify for this manifest under its key. */
  | 'signature_invalid';

/**
 * What a host accepts in production (seed 000 §2.7: only signed or allow-listed bundles). Without a policy every
 * bundle whose files match its manifest is accepted (development). With one, a manifest is accepted when its
 * `manifestDigest` is allow-listed, or when `lineup.manifest.sig` next to it is a valid Ed25519 signature of
 * `bundleSignatureMessage(manifest)` by one of `trustedKeys`.
 */
export interface BundlePolicy {
  /** `manifestDigest` values accepted as they are. */
  readonly allowedManifests?: readonly string[];
  /** Ed25519 public keys (raw 32 bytes, base64) whose signatures are accepted. */
  readonly trustedKeys?: readonly string[];
}

export class BundleIntegrityError extends LineUpError<BundleIntegrityErrorCode> {
  override readonly name = 'BundleIntegrityError';
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
    super(code, message);
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
  manifest: Pick<MiniAppManifest, 'id' | 'version' | 'files'>,
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
  policy?: BundlePolicy,
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
  // The policy first: a bundle the host would not accept is not downloaded.
  if (policy !== undefined)
    await checkPolicy(manifest, policy, async () => {
      const response = await get(MINIAPP_SIGNATURE_FILE_NAME);
      return response === undefined ? undefined : response.text();
    });
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

/**
 * The base URL a folder the user picked is served under (`pickedBundleFetch`). The `.invalid` top-level domain is
 * reserved (RFC 6761) and never resolves, so nothing installed from it can ever be fetched from a network.
 */
export const PICKED_BUNDLE_URL = 'https://picked.lineup.invalid/';

/**
 * A `fetch` for `installBundle` that serves the files of a folder the user picked (`<input type="file"
 * webkitdirectory>`), keyed by their path inside that folder (`lineup.manifest.json`, `assets/app.js`), under
 * `PICKED_BUNDLE_URL`; anything else — another host, a query, a path not picked — is 404. A picked bundle so takes
 * the same verified path as a served one: `registry.installBundle(PICKED_BUNDLE_URL, { fetch:
 * pickedBundleFetch(files) })`. The map is copied, so later changes to it are not served.
 */
export function pickedBundleFetch(files: ReadonlyMap<string, Blob>): (url: URL) => Promise<Response> {
  const picked = new Map(files);
  const notFound = () => new Response(null, { status: 404, statusText: 'Not Found' });
  return async (url) => {
    if (url.origin !== new URL(PICKED_BUNDLE_URL).origin || url.search !== '' || url.hash !== '')
      return notFound();
    let path: string;
    try {
      path = decodeURIComponent(url.pathname.slice(1));
    } catch {
      return notFound();
    }
    const file = picked.get(path);
    return file === undefined ? notFound() : new Response(file);
  };
}

const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** Accepts the manifest under `policy` or throws `not_allowed` / `signature_invalid`. */
export async function checkPolicy(
  manifest: MiniAppManifest,
  policy: BundlePolicy,
  readSignature: () => Promise<string | undefined>,
): Promise<void> {
  const digest = manifestDigest(manifest);
  if (policy.allowedManifests?.includes(digest) === true) return;
  const text = (policy.trustedKeys?.length ?? 0) > 0 ? await readSignature() : undefined;
  if (text === undefined)
    throw new BundleIntegrityError(
      'not_allowed',
      `${manifest.id} ${manifest.version} is neither allow-listed (${digest}) nor signed by a trusted key.`,
      { actual: digest },
    );
  let signature: { key: string; signature: string };
  try {
    signature = BundleSignatureSchema.parse(JSON.parse(text));
  } catch {
    throw new BundleIntegrityError(
      'signature_invalid',
      `${MINIAPP_SIGNATURE_FILE_NAME} is not a valid signature file.`,
      {
        path: MINIAPP_SIGNATURE_FILE_NAME,
      },
    );
  }
  if (policy.trustedKeys?.includes(signature.key) !== true)
    throw new BundleIntegrityError(
      'not_allowed',
      `${manifest.id} is signed by a key this host does not trust.`,
      {
        path: MINIAPP_SIGNATURE_FILE_NAME,
        actual: signature.key,
      },
    );
  let valid = false;
  try {
    const key = await crypto.subtle.importKey(
      'raw',
      fromBase64(signature.key) as BufferSource,
      { name: 'Ed25519' },
      false,
      ['verify'],
    );
    valid = await crypto.subtle.verify(
      { name: 'Ed25519' },
      key,
      fromBase64(signature.signature) as BufferSource,
      new TextEncoder().encode(bundleSignatureMessage(manifest)) as BufferSource,
    );
  } catch {
    valid = false;
  }
  if (!valid)
    throw new BundleIntegrityError(
      'signature_invalid',
      `The signature of ${manifest.id} does not verify for this manifest.`,
      {
        path: MINIAPP_SIGNATURE_FILE_NAME,
      },
    );
}
