/**
 * What the command prints after it wrote the app: the commands to run, in order, with the package manager that
 * ran it, each with what it is for — the same loop as the SDK README's quick start (test, type-check, the mock
 * runtime, the real runtime with `?dev=`, the build).
 */
import { type PackageManager, runCommand } from './create.js';

/** Where Vite serves the app by default, and where LineUp's Web Reference Host runs (`npm start` in a checkout). */
const DEV_SERVER = 'http://localhost:5173';
const WEB_REFERENCE_HOST = 'http://127.0.0.1:4173';

/** The "Next:" lines for an app in `folder` (as the user reaches it from where they are). */
export function nextSteps(folder: string, manager: PackageManager): readonly string[] {
  const dev = runCommand(manager, 'dev');
  const steps: readonly (readonly [command: string, ...what: string[]])[] = [
    [`cd ${folder}`],
    [`${manager} install`],
    [runCommand(manager, 'test'), "the tool's tests"],
    [runCommand(manager, 'typecheck'), 'TypeScript over src'],
    [
      dev,
      `try it in the mock runtime: open ${DEV_SERVER}/__lineup/ and press Call`,
      `call it in the real runtime: keep \`${dev}\` running, start LineUp's`,
      'Web Reference Host (`npm start` in a LineUp checkout) and open',
      `${WEB_REFERENCE_HOST}/?dev=${DEV_SERVER}/__lineup/bundle/`,
    ],
    [runCommand(manager, 'build'), 'dist/ with lineup.manifest.json, to install in a LineUp host'],
  ];
  const width = Math.max(...steps.filter((step) => step.length > 1).map(([command]) => command.length)) + 3;
  return [
    'Next:',
    ...steps.flatMap(([command, ...what]) =>
      what.length === 0
        ? [`  ${command}`]
        : what.map((line, index) => `  ${(index === 0 ? command : '').padEnd(width)}${line}`),
    ),
  ];
}
