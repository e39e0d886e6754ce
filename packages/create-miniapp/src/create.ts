/**
 * Writes a new MiniApp: the files of `template/` with the app's names filled in, and a `package.json` whose
 * LineUp ranges are the ones this package was released with. Checks everything before it writes anything: a
 * refusal is a `CreateMiniAppError` and leaves the disk as it was.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_TOOL_LIMITS, MiniAppManifestSchema } from '@lineup/shared/protocol';

/** Why a MiniApp was not created. */
export type CreateMiniAppErrorCode =
  | 'invalid_directory'
  | 'directory_not_empty'
  | 'invalid_package_name'
  | 'invalid_app_scope'
  | 'invalid_app_id'
  | 'invalid_display_name'
  | 'invalid_packages_folder';

/** A refusal: nothing was written. `message` says what to change. */
export class CreateMiniAppError extends Error {
  override readonly name = 'CreateMiniAppError';
  constructor(
    readonly code: CreateMiniAppErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type PackageManager = 'npm' | 'pnpm' | 'yarn';

export interface CreateMiniAppOptions {
  /** The folder to create (relative to `cwd`); it may exist only if it is empty. */
  readonly directory: string;
  /** Default `process.cwd()`. */
  readonly cwd?: string;
  /** The app scope, the prefix of its tools' names (`notes` → `notes.add`); default from the folder's name. */
  readonly appScope?: string;
  /** The app's reverse-DNS id; default `com.example.<appScope>`. */
  readonly appId?: string;
  /** The name people see; default from the folder's name (`my-notes` → `My Notes`). */
  readonly displayName?: string;
  /** Whose commands the app's README shows (default `npm`). */
  readonly packageManager?: PackageManager;
  /**
   * A folder holding the LineUp tarballs (`lineup-shared-*.tgz`, `lineup-miniapp-sdk-*.tgz`, from `pnpm pack`):
   * the app depends on those files instead of registry versions. For packages not published yet.
   */
  readonly lineupPackages?: string;
}

export interface CreatedMiniApp {
  /** The absolute path of the new app. */
  readonly directory: string;
  readonly packageName: string;
  readonly appScope: string;
  readonly appId: string;
  readonly displayName: string;
  /** The files written, relative to `directory`, sorted. */
  readonly files: readonly string[];
}

/** The versions of the tools the template is tested with in LineUp's CI (`pack-smoke`'s create row). */
export const TEMPLATE_TOOL_VERSIONS = Object.freeze({
  zod: '^4.6.7',
  typescript: '^5.9.3',
  vite: '^8.3.8',
  vitest: '^4.1.12',
});

const TEMPLATE = fileURLToPath(new URL('../template/', import.meta.url));
/** The manifest's own rules for these three fields: what the build would refuse is refused here, first. */
const { app_scope: AppScope, id: AppId, name: DisplayName } = MiniAppManifestSchema.shape;
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
/** `{{` would read as a placeholder of the template. */
const PLACEHOLDER = /\{\{|\}\}/;

const html = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Inside a single-quoted TypeScript string. */
const quoted = (text: string) => text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");

/** `My Notes!` → `my_notes`: the app scope a folder name gives, or undefined when it gives none. */
export function appScopeFromName(name: string): string | undefined {
  const scope = name
    .replace(/^@[^/]*\//, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[_0-9]+|_+$/g, '');
  return scope === '' ? undefined : scope.slice(0, AGENT_TOOL_LIMITS.maxAppScopeLength).replace(/_+$/, '');
}

/** `my-notes` → `My Notes`. */
export function displayNameFromName(name: string): string {
  const words = name
    .replace(/^@[^/]*\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  return words.length === 0
    ? 'My MiniApp'
    : words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ');
}

/** The package manager that ran us, from `npm_config_user_agent` (`pnpm/10.20.0 npm/? node/v20…`). */
export function packageManagerOf(userAgent: string | undefined): PackageManager {
  if (userAgent?.startsWith('pnpm/')) return 'pnpm';
  if (userAgent?.startsWith('yarn/')) return 'yarn';
  return 'npm';
}

/** How to run a script with `manager`: `npm run dev`, `pnpm dev`, `yarn dev`. */
export function runCommand(manager: PackageManager, script: string): string {
  return manager === 'npm' ? `npm run ${script}` : `${manager} ${script}`;
}

/** The published range of a LineUp package installed beside this one: `^` its version. */
function lineupRange(name: string): string {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as {
    version: string;
  };
  return `^${manifest.version}`;
}

function tarballIn(folder: string, name: string): string {
  const prefix = `lineup-${name}-`;
  const found = readdirSync(folder).filter((file) => file.startsWith(prefix) && file.endsWith('.tgz'));
  if (found.length !== 1)
    throw new CreateMiniAppError(
      'invalid_packages_folder',
      `${folder} must hold exactly one ${prefix}<version>.tgz (found ${found.length}); make it with \`pnpm pack\` in packages/${name} of a LineUp checkout.`,
    );
  return resolve(folder, found[0]!);
}

/** Every file under `folder`, relative to it. */
function filesUnder(folder: string, prefix = ''): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(folder, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/** Writes a new MiniApp into `options.directory`; throws `CreateMiniAppError`, having written nothing, when it cannot. */
export function createMiniApp(options: CreateMiniAppOptions): CreatedMiniApp {
  const cwd = options.cwd ?? process.cwd();
  if (options.directory.trim() === '')
    throw new CreateMiniAppError('invalid_directory', 'Name the folder to create, e.g. `my-notes`.');
  const directory = resolve(cwd, options.directory);
  if (existsSync(directory)) {
    if (!statSync(directory).isDirectory())
      throw new CreateMiniAppError('invalid_directory', `${directory} is a file, not a folder.`);
    if (readdirSync(directory).length > 0)
      throw new CreateMiniAppError(
        'directory_not_empty',
        `${directory} is not empty; choose a new folder name (nothing was written).`,
      );
  }
  const packageName = basename(directory).toLowerCase();
  if (!PACKAGE_NAME.test(packageName) || packageName.length > 214)
    throw new CreateMiniAppError(
      'invalid_package_name',
      `"${basename(directory)}" cannot be an npm package name: use lower-case letters, digits and - . _ ~ (e.g. my-notes).`,
    );
  const appScope = options.appScope ?? appScopeFromName(packageName);
  if (appScope === undefined || !AppScope.safeParse(appScope).success)
    throw new CreateMiniAppError(
      'invalid_app_scope',
      appScope === undefined
        ? `No app scope can be made from "${packageName}": pass one with --scope (a letter, then lower-case letters, digits and _, e.g. notes).`
        : `The app scope "${appScope}" is not valid: a letter, then lower-case letters, digits and _ (at most ${AGENT_TOOL_LIMITS.maxAppScopeLength}), e.g. notes.`,
    );
  const appId = options.appId ?? `com.example.${appScope}`;
  if (!AppId.safeParse(appId).success)
    throw new CreateMiniAppError(
      'invalid_app_id',
      `The app id "${appId}" is not a reverse-DNS id: dot-separated lower-case parts, each starting with a letter (e.g. com.example.notes).`,
    );
  const displayName = options.displayName ?? displayNameFromName(packageName);
  if (
    !DisplayName.safeParse(displayName).success ||
    displayName.trim() === '' ||
    PLACEHOLDER.test(displayName)
  )
    throw new CreateMiniAppError(
      'invalid_display_name',
      'The display name must be 1 to 128 characters of text, without control characters or {{ }}.',
    );
  const manager = options.packageManager ?? 'npm';
  let lineup: Record<string, string>;
  if (options.lineupPackages === undefined) {
    lineup = { '@lineup/miniapp-sdk': lineupRange('@lineup/miniapp-sdk') };
  } else {
    const folder = resolve(cwd, options.lineupPackages);
    if (!existsSync(folder) || !statSync(folder).isDirectory())
      throw new CreateMiniAppError('invalid_packages_folder', `${folder} is not a folder.`);
    // Both as files: the registry does not have the SDK's @lineup/shared either.
    const file = (name: string) => `file:${relative(directory, tarballIn(folder, name)) || '.'}`;
    lineup = { '@lineup/miniapp-sdk': file('miniapp-sdk'), '@lineup/shared': file('shared') };
  }

  const values: Record<string, string> = {
    packageName,
    appScope,
    appId,
    displayName,
    displayNameHtml: html(displayName),
    displayNameQuoted: quoted(displayName),
    run: manager === 'npm' ? 'npm run' : manager,
  };
  const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
  const output = new Map<string, string>();
  for (const path of filesUnder(TEMPLATE))
    output.set(path === '_gitignore' ? '.gitignore' : path, fill(readFileSync(join(TEMPLATE, path), 'utf8')));
  output.set(
    'package.json',
    `${JSON.stringify(
      {
        name: packageName,
        version: '0.1.0',
        private: true,
        type: 'module',
        scripts: {
          dev: 'vite',
          build: 'vite build',
          typecheck: 'tsc --noEmit',
          test: 'vitest run',
        },
        dependencies: {
          ...lineup,
          zod: TEMPLATE_TOOL_VERSIONS.zod,
        },
        devDependencies: {
          typescript: TEMPLATE_TOOL_VERSIONS.typescript,
          vite: TEMPLATE_TOOL_VERSIONS.vite,
          vitest: TEMPLATE_TOOL_VERSIONS.vitest,
        },
        // pnpm resolves the SDK's own @lineup/shared from the registry unless told (npm takes the root's file).
        ...(options.lineupPackages === undefined
          ? {}
          : { pnpm: { overrides: { '@lineup/shared': lineup['@lineup/shared'] } } }),
      },
      null,
      2,
    )}\n`,
  );

  for (const [path, text] of output) {
    const target = join(directory, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text, { flag: 'wx' });
  }
  return { directory, packageName, appScope, appId, displayName, files: [...output.keys()].sort() };
}
