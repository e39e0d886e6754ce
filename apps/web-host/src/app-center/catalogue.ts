/**
 * The MiniApps this host ships with (served under /apps/<name>/, see bundled-miniapps.ts), and their install at
 * the first start of a profile.
 */
import type { AppRegistry, RuntimeDatabase } from '@lineup/runtime';
import { type AppCenterProblem, problemOf } from './problems.ts';

/** One bundled app: its manifest id and name (to list it before it is fetched), and its bundle, relative to the page. */
export interface CatalogueEntry {
  readonly id: string;
  readonly name: string;
  readonly bundleUrl: string;
}

export const BUNDLED_APPS: readonly CatalogueEntry[] = [
  { id: 'com.lineup.pomodoro', name: 'Pomodoro', bundleUrl: './apps/pomodoro/' },
];

export function catalogueUrl(entry: CatalogueEntry, baseUri: string): URL {
  return new URL(entry.bundleUrl, baseUri);
}

/**
 * Installs each catalogue app that was never installed in this profile, from its verified bundle: every file is
 * checked against the manifest's SHA-256 before anything is kept. One that fails is not installed; the start-up
 * says which file and both digests, and the next start tries again.
 *
 * "Never installed" is read from the runtime's own audit log (an `app_installed` entry for the app's id), not from
 * a flag of its own: an app the user uninstalled in the app center stays uninstalled across reloads (it can be
 * installed again from the catalogue there), and the memory lives in the same IndexedDB database as the apps, so
 * clearing one clears the other — a flag in localStorage could outlive a deleted database and leave a fresh
 * profile without its bundled apps. Installed apps are not fetched again at start-up: a newer bundled version
 * reaches them through the app center's "Check for update", like any other app.
 */
export async function installCatalogueAtFirstStart(
  db: RuntimeDatabase,
  registry: AppRegistry,
  catalogue: readonly CatalogueEntry[],
  baseUri: string,
): Promise<{ readonly bundleUrl: string; readonly problem: AppCenterProblem }[]> {
  const problems: { bundleUrl: string; problem: AppCenterProblem }[] = [];
  for (const entry of catalogue) {
    const history = await db.getAllFromIndex('audit', 'by_app', entry.id);
    if (history.some((audit) => audit.type === 'app_installed')) continue;
    try {
      await registry.installBundle(catalogueUrl(entry, baseUri));
    } catch (error) {
      problems.push({ bundleUrl: entry.bundleUrl, problem: problemOf(error) });
    }
  }
  return problems;
}
