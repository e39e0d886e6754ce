/** The README is the package's reference: every value an entry point exports is named in it (vitest.readme.ts). */
import { describe, expect, it } from 'vitest';
import { describeReadmeExports } from '../../../vitest.readme.js';
import packageJson from '../package.json' with { type: 'json' };
import readme from '../README.md?raw';
import * as root from './index.js';
import * as vite from './vite.js';

const ENTRY_POINTS: Record<string, object> = { '.': root, './vite': vite };

describeReadmeExports({ describe, expect, it }, readme, packageJson.exports, ENTRY_POINTS);
