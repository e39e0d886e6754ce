/**
 * The page `bundle-verification.mjs` drives in Chromium: the built `@lineup/runtime` verifying and installing
 * MiniApp bundles on the browser's own WebCrypto and IndexedDB, and the bare baselines the same work is compared
 * with (a `crypto.subtle.digest` of the same bytes; plain `fetch` and one plain IndexedDB transaction). Every
 * function times itself with `performance.now()` and returns milliseconds, so the Node side only orders runs and
 * compares them. The bundles are served by the benchmark's server under `/bundles/<name>/`.
 */
import {
  AppRegistry,
  fetchVerifiedBundle,
  openRuntimeDatabase,
  type RuntimeDatabase,
  verifyBundleFiles,
} from '@lineup/runtime';
import {
  MINIAPP_MANIFEST_FILE_NAME,
  type MiniAppManifest,
  parseMiniAppManifest,
} from '@lineup/shared/protocol';
import { deleteDB, type IDBPDatabase, openDB } from 'idb';

const VERIFY_DATABASE = 'bench-bundle-verify';

/** Fetches a bundle's manifest and listed files, untimed; what the timed functions work on. */
async function download(bundleUrl: string) {
  const manifest = parseMiniAppManifest(
    await (await fetch(new URL(MINIAPP_MANIFEST_FILE_NAME, bundleUrl))).json(),
  );
  const files = new Map<string, Uint8Array>();
  for (const file of manifest.files ?? [])
    files.set(file.path, new Uint8Array(await (await fetch(new URL(file.path, bundleUrl))).arrayBuffer()));
  return { manifest, files };
}

// ── 1. Verification of a kept bundle ──────────────────────────────────────────────────────────────────

interface Verification {
  readonly manifest: MiniAppManifest;
  /** The files in the manifest's order. */
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly db: RuntimeDatabase;
  readonly registry: AppRegistry;
}

let verification: Verification | undefined;

/** Loads the bundle into memory and installs it once (into a fresh database) for `verifyInstalled`. */
async function prepareVerification(bundleUrl: string) {
  await deleteDB(VERIFY_DATABASE);
  const { manifest, files } = await download(bundleUrl);
  const db = await openRuntimeDatabase(VERIFY_DATABASE);
  const registry = new AppRegistry(db);
  const outcome = await registry.installBundle(bundleUrl);
  if (outcome !== 'installed') throw new Error(`the verification bundle was ${outcome}, not installed`);
  verification = { manifest, files, db, registry };
  return {
    crossOriginIsolated: window.crossOriginIsolated,
    files: [...files].map(([path, bytes]) => ({ path, bytes: bytes.length })),
  };
}

/** What one iteration of each kind does; each resolves when its work is done. */
const VERIFY_KINDS = {
  /** The runtime's check of bytes in memory against the manifest (size and SHA-256 of every file). */
  verifyBundleFiles: async ({ manifest, files }: Verification) => {
    await verifyBundleFiles(manifest, async (path) => files.get(path));
  },
  /** Baseline: a bare WebCrypto digest of each file's bytes, one after another as the runtime checks them. */
  digest: async ({ files }: Verification) => {
    for (const bytes of files.values())
      await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  },
  /** The runtime's check before a mount: reads the kept files back from IndexedDB and digests them. */
  verifyInstalled: async ({ manifest, registry }: Verification) => {
    await registry.verifyInstalled(manifest.id);
  },
  /** Baseline of that: the same records read in one plain transaction, then bare digests. */
  readAndDigest: async ({ manifest, db }: Verification) => {
    const transaction = db.transaction(['apps', 'bundle_files'], 'readonly');
    const store = transaction.objectStore('bundle_files');
    const [, ...records] = await Promise.all([
      transaction.objectStore('apps').get(manifest.id),
      ...(manifest.files ?? []).map((file) => store.get(`${manifest.id}\n${manifest.version}\n${file.path}`)),
    ]);
    await transaction.done;
    for (const record of records) {
      if (record === undefined) throw new Error('a kept file is missing');
      await crypto.subtle.digest('SHA-256', record.bytes as Uint8Array<ArrayBuffer>);
    }
  },
} satisfies Record<string, (state: Verification) => Promise<void>>;

export type VerifyKind = keyof typeof VERIFY_KINDS;

/**
 * `iterations` rounds of every kind, each timed on its own, the order rotating from round to round so that each
 * kind runs first as often as the others; `warmup` untimed rounds before them.
 */
async function verifyRounds(iterations: number, warmup: number): Promise<Record<VerifyKind, number[]>> {
  const state = verification;
  if (state === undefined) throw new Error('prepareVerification first');
  const kinds = Object.keys(VERIFY_KINDS) as VerifyKind[];
  const times = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<
    VerifyKind,
    number[]
  >;
  for (let round = -warmup; round < iterations; round++) {
    const shift = ((round % kinds.length) + kinds.length) % kinds.length;
    for (const kind of [...kinds.slice(shift), ...kinds.slice(0, shift)]) {
      const started = performance.now();
      await VERIFY_KINDS[kind](state);
      const ms = performance.now() - started;
      if (round >= 0) times[kind].push(ms);
    }
  }
  return times;
}

// ── 2. Install end to end ─────────────────────────────────────────────────────────────────────────────

interface PlainSchema {
  files: { key: string; value: { key: string; path: string; integrity: string; bytes: Uint8Array } };
}

const INSTALL_KINDS = {
  /** `installBundle(url)` into a freshly opened runtime database, until its last transaction has committed. */
  installBundle: async (bundleUrl: string, name: string) => {
    const db = await openRuntimeDatabase(name);
    try {
      const started = performance.now();
      const outcome = await new AppRegistry(db).installBundle(bundleUrl);
      const ms = performance.now() - started;
      if (outcome !== 'installed') throw new Error(`the bundle was ${outcome}, not installed`);
      return { ms, kept: await db.count('bundle_files') };
    } finally {
      db.close();
    }
  },
  /**
   * Baseline: the same requests with plain `fetch` (the manifest, then each file with `arrayBuffer()`, one after
   * another as the runtime asks for them), and the files stored in one plain IndexedDB transaction; no checks.
   */
  plain: async (bundleUrl: string, name: string) => {
    const db: IDBPDatabase<PlainSchema> = await openDB<PlainSchema>(name, 1, {
      upgrade: (database) => database.createObjectStore('files', { keyPath: 'key' }),
    });
    try {
      const started = performance.now();
      const manifest = (await (await fetch(new URL(MINIAPP_MANIFEST_FILE_NAME, bundleUrl))).json()) as {
        files: { path: string; integrity: string }[];
      };
      const fetched = [];
      for (const file of manifest.files)
        fetched.push({
          key: file.path,
          path: file.path,
          integrity: file.integrity,
          bytes: new Uint8Array(await (await fetch(new URL(file.path, bundleUrl))).arrayBuffer()),
        });
      const fetchMs = performance.now() - started;
      const transaction = db.transaction('files', 'readwrite');
      for (const record of fetched) void transaction.store.put(record);
      await transaction.done;
      const ms = performance.now() - started;
      return { ms, fetchMs, kept: await db.count('files') };
    } finally {
      db.close();
    }
  },
  /** Diagnostic: `fetchVerifiedBundle(url)` alone — the requests and the checks, nothing stored. */
  fetchVerified: async (bundleUrl: string) => {
    const started = performance.now();
    const { files } = await fetchVerifiedBundle(bundleUrl);
    return { ms: performance.now() - started, kept: files.size };
  },
} satisfies Record<
  string,
  (bundleUrl: string, name: string) => Promise<{ ms: number; kept: number; fetchMs?: number }>
>;

export type InstallKind = keyof typeof INSTALL_KINDS;

/** One timed install of `kind` into the database `name`, which is deleted afterwards (untimed). */
async function install(kind: InstallKind, bundleUrl: string, name: string) {
  await deleteDB(name);
  try {
    return await INSTALL_KINDS[kind](bundleUrl, name);
  } finally {
    await deleteDB(name);
  }
}

const bundleBench = { prepareVerification, verifyRounds, install };

declare global {
  interface Window {
    bundleBench: typeof bundleBench;
  }
}

window.bundleBench = bundleBench;
