/** The README is the package's reference: every value an entry point exports is named in it (vitest.readme.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeReadmeExports } from '../../../vitest.readme.js';
import packageJson from '../package.json' with { type: 'json' };
import * as aiSdk from './ai-sdk.js';
import * as root from './index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

const ENTRY_POINTS: Record<string, object> = { '.': root, './ai-sdk': aiSdk };

describeReadmeExports({ describe, expect, it }, readme, packageJson.exports, ENTRY_POINTS);
