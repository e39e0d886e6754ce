// Build step: writes the document JSON Schema generated from the zod schemas (via the built package) to
// schema/ui.schema.json, the file editors and tools consume (seed 002 §9). The file is committed so that a
// reviewer sees every schema change as a diff; never edit it by hand. In CI (CI=true) the build only checks
// that the committed file is current, so a schema change without its regenerated file fails.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentJsonSchema } from '../dist/index.js';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema', 'ui.schema.json');
const content = `${JSON.stringify(documentJsonSchema, null, 2)}\n`;
const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;

if (current === content) {
  console.log('schema/ui.schema.json is up to date');
} else if (process.env.CI) {
  console.error(
    'schema/ui.schema.json is out of date: run `pnpm build` in packages/shared and commit the file.',
  );
  process.exit(1);
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  console.log('wrote schema/ui.schema.json');
}
