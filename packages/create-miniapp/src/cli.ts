#!/usr/bin/env node
/**
 * `npm create @lineup/miniapp@latest <folder>` (or `pnpm create @lineup/miniapp <folder>`): writes a MiniApp with one
 * Agent Tool and says what to run next. Exits 1 with a sentence, having written nothing, when it cannot.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { CreateMiniAppError, createMiniApp, packageManagerOf } from './create.js';
import { nextSteps } from './next-steps.js';

const USAGE = `Usage: npm create @lineup/miniapp@latest <folder> [-- options]
       pnpm create @lineup/miniapp <folder> [options]

Writes a LineUp MiniApp with one Agent Tool into <folder> (new, or empty).

Options:
  --scope <app_scope>       the prefix of its tools' names (default: from the folder's name, my-notes → my_notes)
  --id <app id>             its reverse-DNS id (default: com.example.<app_scope>)
  --name <display name>     the name people see (default: from the folder's name, my-notes → My Notes)
  --lineup-packages <dir>   depend on the LineUp tarballs in <dir> (from \`pnpm pack\`) instead of the registry
  -h, --help                this text
  -v, --version             this package's version`;

function main(argv: readonly string[]): number {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 1;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.version) {
    const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    console.log(own.version);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(
      `${positionals.length === 0 ? 'Name the folder to create.' : `One folder at a time (got ${positionals.join(', ')}).`}\n\n${USAGE}`,
    );
    return 1;
  }
  const manager = packageManagerOf(process.env.npm_config_user_agent);
  try {
    const app = createMiniApp({
      directory: positionals[0]!,
      packageManager: manager,
      ...(values.scope === undefined ? {} : { appScope: values.scope }),
      ...(values.id === undefined ? {} : { appId: values.id }),
      ...(values.name === undefined ? {} : { displayName: values.name }),
      ...(values['lineup-packages'] === undefined ? {} : { lineupPackages: values['lineup-packages'] }),
    });
    const folder = relative(process.cwd(), app.directory) || '.';
    console.log(
      [
        `Created ${app.displayName} in ${folder}: ${app.files.length} files, the tool ${app.appScope}.add.`,
        '',
        ...nextSteps(folder, manager),
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    if (error instanceof CreateMiniAppError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      scope: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      'lineup-packages': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

process.exitCode = main(process.argv.slice(2));
