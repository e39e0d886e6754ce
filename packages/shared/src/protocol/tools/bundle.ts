/**
 * The integrity of a MiniApp bundle (seed 000 §2.7, §4.1, §6 M2): the manifest lists every file of the bundle with
 * its size and `sha256-<base64>` digest, and `integrity` is the digest of that list — one value that names the
 * whole bundle, for a host's allow-list or a signature. The SDK's Vite plugin computes both at build time; the
 * runtime checks every file against them before it keeps anything, and before it mounts.
 *
 * `bundleIntegrity(files)` is `sha256-` and the base64 SHA-256 of the UTF-8 canonical JSON (RFC 8785 form) of
 * the list sorted by path, each entry `{ integrity, path, size }`.
 *
 * A host's policy names whole manifests, not only their files (the tools and permissions a manifest declares matter
 * as much as its code): `manifestDigest(manifest)` is `sha256-<base64>` of the manifest's canonical JSON, and a
 * signature is Ed25519 over the UTF-8 bytes of `bundleSignatureMessage(manifest)`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { canonicalJSONString } from '../../json/canonical.js';
import { IntegritySchema } from '../messages/common.js';

/** Bounds of a bundle. Seed 000 suggests 160 KiB for an inline Surface; an installed app may be larger. */
export const BUNDLE_LIMITS = Object.freeze({
  /** Files one bundle lists. */
  maxFiles: 512,
  /** Bytes of one file. */
  maxFileBytes: 8_388_608,
  /** Bytes of all files together. */
  maxBundleBytes: 33_554_432,
  /** UTF-16 code units of a bundle-relative path. */
  maxPathLength: 256,
} as const);

/**
 * A path inside the bundle (`index.html`, `assets/index-4f2a.js`): segments of letters, digits, `.`, `_` and `-`
 * that do not start with a dot — so no `..`, no scheme, no host, no query, no backslash.
 */
export const BUNDLE_PATH_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export const BundlePathSchema = z
  .string()
  .min(1)
  .max(BUNDLE_LIMITS.maxPathLength)
  .regex(BUNDLE_PATH_PATTERN)
  .meta({ id: 'BundlePath', description: 'A relative path inside the bundle.' });

/** One file of a bundle: its path, size in bytes and SHA-256 digest. */
export const BundleFileSchema = z
  .strictObject({
    path: BundlePathSchema,
    size: z.int().min(0).max(BUNDLE_LIMITS.maxFileBytes),
    integrity: IntegritySchema,
  })
  .meta({ id: 'BundleFile' });
export type BundleFile = z.infer<typeof BundleFileSchema>;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const a = bytes[index] as number;
    const b = bytes[index + 1];
    const c = bytes[index + 2];
    text += BASE64[a >> 2];
    text += BASE64[((a & 3) << 4) | ((b ?? 0) >> 4)];
    text += b === undefined ? '=' : BASE64[((b & 15) << 2) | ((c ?? 0) >> 6)];
    text += c === undefined ? '=' : BASE64[c & 63];
  }
  return text;
}

/** `sha256-<base64>` of a SHA-256 digest (32 bytes). */
export function integrityOfDigest(digest: Uint8Array): string {
  if (digest.length !== 32) throw new RangeError('A SHA-256 digest is 32 bytes.');
  return `sha256-${base64(digest)}`;
}

/** `sha256-<base64>` of `bytes` (synchronous; a browser may use WebCrypto and `integrityOfDigest`). */
export function fileIntegrity(bytes: Uint8Array): string {
  return integrityOfDigest(sha256(bytes));
}

/** The list in its canonical order: by path, in UTF-16 code unit order. */
export function sortBundleFiles(files: readonly BundleFile[]): BundleFile[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What a publisher signs: a fixed label and the manifest's canonical JSON (`lineup-manifest-v1\n` + JSON). */
export function bundleSignatureMessage(manifest: unknown): string {
  return `lineup-manifest-v1\n${canonicalJSONString(manifest, MANIFEST_CANONICAL_BUDGET)}`;
}

/** `sha256-<base64>` of the manifest's canonical JSON: the value a host's allow-list holds. */
export function manifestDigest(manifest: unknown): string {
  return integrityOfDigest(sha256(utf8ToBytes(canonicalJSONString(manifest, MANIFEST_CANONICAL_BUDGET))));
}

const MANIFEST_CANONICAL_BUDGET = { maxBytes: 524_288, maxDepth: 64, maxValues: 65_536 } as const;

/** The name of the detached signature file next to `lineup.manifest.json`. */
export const MINIAPP_SIGNATURE_FILE_NAME = 'lineup.manifest.sig';

/** The signature file: `{ "alg": "Ed25519", "key": <base64 raw public key>, "signature": <base64, 64 bytes> }`. */
export const BundleSignatureSchema = z
  .strictObject({
    alg: z.literal('Ed25519'),
    key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/),
    signature: z.string().regex(/^[A-Za-z0-9+/]{86}==$/),
  })
  .meta({ id: 'BundleSignature' });
export type BundleSignature = z.infer<typeof BundleSignatureSchema>;

/** The integrity of a whole bundle: the digest of its canonical file list (see the module comment). */
export function bundleIntegrity(files: readonly BundleFile[]): string {
  const list = sortBundleFiles(files).map(({ path, size, integrity }) => ({ integrity, path, size }));
  return integrityOfDigest(
    sha256(utf8ToBytes(canonicalJSONString(list, { maxBytes: 1_048_576, maxDepth: 4, maxValues: 4_096 }))),
  );
}

/**
 * Where `reference` (an `src` or `href` in the bundle file at `from`) points inside the bundle: the normalised
 * bundle path, or `null` when it is not a path inside it (a URL with a scheme, `//host/…`, empty, or climbing
 * above the bundle's root). A leading `/` is the bundle's root; a query or fragment is dropped.
 */
export function resolveBundlePath(from: string, reference: string): string | null {
  if (reference === '' || /^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith('//')) return null;
  const clean = reference.split(/[?#]/, 1)[0] as string;
  const segments = clean.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const segment of clean.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(segment);
  }
  return segments.join('/');
}

/** Media types of the files a host gives a page or Surface as `data:` URLs, by extension. */
const BUNDLE_MEDIA_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html',
  js: 'text/javascript',
  mjs: 'text/javascript',
  css: 'text/css',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

/** The media type of a bundle file by its extension (`application/octet-stream` for one not listed). */
export function bundleMediaType(path: string): string {
  return (
    BUNDLE_MEDIA_TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream'
  );
}

/** The `data:` URL of a bundle file's bytes (base64), with the media type of its extension. */
export function bundleDataUrl(path: string, bytes: Uint8Array): string {
  return `data:${bundleMediaType(path)};base64,${base64(bytes)}`;
}
