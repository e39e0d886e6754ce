/** The README is the package's reference: every value an entry point exports is named in it, as a whole word. */
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import readme from '../README.md?raw';
import * as root from './index.js';

// Types vanish at runtime, so `Object.keys` lists exactly the values: the functions, classes and constants.
const ENTRY_POINTS: Record<string, object> = { '.': root };

function unnamed(names: readonly string[]): string[] {
  return names.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme)).sort();
}

describe('README.md names every exported value', () => {
  it('covers every JavaScript entry point of package.json', () => {
    const scripts = Object.entries(packageJson.exports).filter(([, target]) => typeof target === 'object');
    expect(scripts.map(([entry]) => entry)).toEqual(Object.keys(ENTRY_POINTS));
  });

  it.each(Object.entries(ENTRY_POINTS))('names every value "%s" exports', (_entry, module) => {
    expect(unnamed(Object.keys(module)), 'exported, but not named in README.md').toEqual([]);
  });
});
