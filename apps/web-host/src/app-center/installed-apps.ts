/**
 * One installed app as the center shows it: its record, its kept bundle's size, whether it came from a picked folder,
 * its audit log (with the last refusal or rollback still standing), and the allowances remembered for its tools.
 */
import {
  type AppRecord,
  type AuditRecord,
  PICKED_BUNDLE_URL,
  type RuntimeDatabase,
  type ToolGrantRecord,
} from '@lineup/runtime';
import { appSource } from './bundle-sources.ts';

/** How many audit entries the center shows per app (newest first). */
export const APP_AUDIT_LIMIT = 50;

/** One installed app, as the center shows it. */
export interface InstalledApp {
  readonly record: AppRecord;
  /** Bytes of the installed version's kept bundle: the sum of its manifest's file sizes. */
  readonly bundleBytes: number;
  /** Installed from a folder the user picked: there is no URL to check for an update; picking again is. */
  readonly picked: boolean;
  /** The app's audit entries, newest first, at most `APP_AUDIT_LIMIT`. */
  readonly audit: readonly AuditRecord[];
  /** The last `bundle_rejected` entry, when nothing was installed, updated or rolled back for it since. */
  readonly refused: AuditRecord | undefined;
  /** The last `app_rolled_back` entry, when nothing was installed, updated or confirmed since. */
  readonly rolledBack: AuditRecord | undefined;
  /** The allowances the user remembered for this app's tools, per conversation, newest first. */
  readonly grants: readonly ToolGrantRecord[];
}

/** The audit types after which an earlier `bundle_rejected` no longer describes the installed version. */
const SETTLING: ReadonlySet<AuditRecord['type']> = new Set([
  'app_installed',
  'app_updated',
  'app_rolled_back',
  'app_upgrade_confirmed',
]);

/** `files[].size` summed: what the installed version's kept bundle (an MCP server's: its views) weighs. */
export function bundleBytes(record: AppRecord): number {
  return (record.manifest.files ?? []).reduce((sum, file) => sum + file.size, 0);
}

/** A byte count for people: `512 B`, `5.7 KiB`, `1.2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Reads one installed app's audit entries (under its id and the URLs it came from) and makes what the center shows. */
export async function readInstalledApp(
  db: RuntimeDatabase,
  record: AppRecord,
  grants: readonly ToolGrantRecord[],
): Promise<InstalledApp> {
  const picked = record.kind !== 'mcp_server' && record.bundleUrl === PICKED_BUNDLE_URL;
  // A refused download is audited under the URL it came from (the manifest's id was not trusted yet); a
  // picked folder's URL is every picked app's, so it is not attributed to one.
  const keys = new Set([record.id]);
  for (const url of [appSource(record), record.previous?.bundleUrl])
    if (url !== undefined && url !== PICKED_BUNDLE_URL) keys.add(url);
  const entries = (
    await Promise.all([...keys].map((key) => db.getAllFromIndex('audit', 'by_app', key)))
  ).flat();
  const audit = entries.sort((a, b) => (b.id ?? 0) - (a.id ?? 0));
  const latest = audit.find((entry) => entry.type === 'bundle_rejected' || SETTLING.has(entry.type));
  return {
    record,
    bundleBytes: bundleBytes(record),
    picked,
    audit: audit.slice(0, APP_AUDIT_LIMIT),
    refused: latest?.type === 'bundle_rejected' ? latest : undefined,
    rolledBack: latest?.type === 'app_rolled_back' ? latest : undefined,
    grants,
  };
}
