import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { nextSteps } from './next-steps.js';

test('npm: install, test, typecheck, the mock and the real runtime, build, in the order of the guide', () => {
  expect(nextSteps('my-notes', 'npm')).toEqual([
    'Next:',
    '  cd my-notes',
    '  npm install',
    "  npm run test        the tool's tests",
    '  npm run typecheck   TypeScript over src',
    '  npm run dev         try it in the mock runtime: open http://localhost:5173/__lineup/ and press Call',
    "                      call it in the real runtime: keep `npm run dev` running, start LineUp's",
    '                      Web Reference Host (`npm start` in a LineUp checkout) and open',
    '                      http://127.0.0.1:4173/?dev=http://localhost:5173/__lineup/bundle/',
    '  npm run build       dist/ with lineup.manifest.json, to install in a LineUp host',
  ]);
});

test("pnpm and yarn: their own commands, the real runtime's step with them", () => {
  const pnpm = nextSteps('my-notes', 'pnpm');
  expect(pnpm.filter((line) => /^ {2}\S/.test(line)).map((line) => line.trim().split(/ {2,}/)[0])).toEqual([
    'cd my-notes',
    'pnpm install',
    'pnpm test',
    'pnpm typecheck',
    'pnpm dev',
    'pnpm build',
  ]);
  expect(pnpm.join('\n')).toContain('keep `pnpm dev` running');
  expect(nextSteps('.', 'yarn').join('\n')).toContain('  yarn typecheck   TypeScript over src');
});

test('the real runtime is opened at the address the SDK README gives', () => {
  const readme = readFileSync(new URL('../../miniapp-sdk/README.md', import.meta.url), 'utf8');
  const url = /open\s+`(http:\/\/127\.0\.0\.1:4173\/\?dev=[^`]+)`/.exec(readme)?.[1];
  expect(url).toBe('http://127.0.0.1:4173/?dev=http://localhost:5173/__lineup/bundle/');
  expect(nextSteps('my-notes', 'npm').join(' ')).toContain(url);
});
