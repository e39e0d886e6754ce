/**
 * The kept files of installed bundles (MiniApps' and MCP servers' views): how each is keyed, stored and deleted, and
 * the check of every kept file against its manifest again before a mount, so what a host mounts is what was
 * verified. A failed check is audited as `bundle_rejected`.
 */
import type { McpServerManifest, MiniAppManifest } from '@lineup/shared/protocol';
import type { AppRecord, BundleFileRecord, RegistryTransaction } from '../storage/database.js';
import { BundleIntegrityError, digestIntegrity } from './bundle.js';
import { notInstalled } from './registry-errors.js';
import type { RegistryContext } from './registry-persistence.js';

/** The key of one kept file. */
function bundleFileKey(appId: string, version: string, path: string): string {
  return `${appId}\n${version}\n${path}`;
}

/** Keeps the verified `files` of every file `manifest` lists, under its id and version. */
export async function keepFiles(
  transaction: RegistryTransaction,
  manifest: MiniAppManifest | McpServerManifest,
  files: ReadonlyMap<string, Uint8Array>,
): Promise<void> {
  const store = transaction.objectStore('bundle_files');
  for (const file of manifest.files ?? [])
    await store.put({
      key: bundleFileKey(manifest.id, manifest.version, file.path),
      appId: manifest.id,
      version: manifest.version,
      path: file.path,
      integrity: file.integrity,
      bytes: files.get(file.path) as Uint8Array,
    } satisfies BundleFileRecord);
}

/** Deletes the kept files of `appId` (of one `version`, or all). */
export async function deleteFiles(
  transaction: RegistryTransaction,
  appId: string,
  version?: string,
): Promise<void> {
  const store = transaction.objectStore('bundle_files');
  for (const stored of await store.index('by_app').getAll(appId))
    if (version === undefined || stored.version === version) await store.delete(stored.key);
}

/**
 * The kept files of the installed version of `appId`, each checked against its manifest again: there, with its
 * size and SHA-256. Throws `BundleIntegrityError` (audited) when one is not; an app installed without a file list
 * is `no_integrity`.
 */
export async function verifyKeptFiles(
  context: RegistryContext,
  appId: string,
): Promise<{
  readonly app: AppRecord;
  readonly manifest: MiniAppManifest | McpServerManifest;
  readonly files: ReadonlyMap<string, Uint8Array>;
}> {
  const app = await context.db.get('apps', appId);
  if (app === undefined) throw notInstalled();
  const { manifest } = app;
  const files = new Map<string, Uint8Array>();
  try {
    if (manifest.files === undefined)
      throw new BundleIntegrityError(
        'no_integrity',
        `${manifest.id} was installed without a verified file list.`,
      );
    for (const file of manifest.files) {
      const stored = await context.db.get(
        'bundle_files',
        bundleFileKey(manifest.id, manifest.version, file.path),
      );
      if (stored === undefined)
        throw new BundleIntegrityError('missing_file', `The kept bundle has no ${file.path}.`, {
          path: file.path,
          expected: file.integrity,
        });
      if (stored.bytes.length !== file.size)
        throw new BundleIntegrityError(
          'size_mismatch',
          `The kept ${file.path} is ${stored.bytes.length} bytes; the manifest says ${file.size}.`,
          {
            path: file.path,
            expected: String(file.size),
            actual: String(stored.bytes.length),
          },
        );
      const actual = await digestIntegrity(stored.bytes);
      if (actual !== file.integrity)
        throw new BundleIntegrityError(
          'digest_mismatch',
          `The kept ${file.path} does not match the manifest: expected ${file.integrity}, found ${actual}.`,
          { path: file.path, expected: file.integrity, actual },
        );
      files.set(file.path, stored.bytes);
    }
  } catch (error) {
    if (error instanceof BundleIntegrityError)
      await recordRejected(context, manifest.id, manifest.version, error);
    throw error;
  }
  return { app, manifest, files };
}

/** Audits a bundle that failed its check (`bundle_rejected`: the code and the file). */
export async function recordRejected(
  context: RegistryContext,
  appId: string,
  version: string,
  error: BundleIntegrityError,
): Promise<void> {
  await context.db.add('audit', {
    at: context.clock.now(),
    type: 'bundle_rejected',
    appId: appId.slice(0, 256),
    version,
    detail: `${error.code}${error.path === undefined ? '' : ` ${error.path}`}`,
  });
}
