import { describe, expect, it } from 'vitest';
import license from '../LICENSE?raw';
import packageJson from '../package.json' with { type: 'json' };
import * as entry from './index.js';

// The public surface is pinned: adding, removing or renaming an export or an entry point fails here, so an
// API change is always deliberate and comes with a changeset (VERSIONING.md).
describe('@lineup/renderer-react public surface', () => {
  it('ships its MIT license and says which Node.js versions it supports', () => {
    expect(packageJson.license).toBe('MIT');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 The LineUp contributors/);
    expect(packageJson.engines.node).toMatch(/^(>=|\^)20\.19/);
  });

  it('publishes the exports without the workspace-only @lineup/source condition', () => {
    const published = (value: unknown): unknown =>
      typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([condition]) => condition !== '@lineup/source')
              .map(([condition, target]) => [condition, published(target)]),
          )
        : value;
    expect(JSON.stringify(packageJson.exports)).toContain('@lineup/source');
    expect(packageJson.publishConfig.exports).toEqual(published(packageJson.exports));
    expect(JSON.stringify(packageJson.publishConfig.exports)).not.toContain('@lineup/source');
  });

  it('exports exactly the pinned entry points', () => {
    expect(Object.keys(packageJson.exports)).toEqual(['.', './styles.css', './package.json']);
  });

  it('exports exactly the pinned names from "."', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'IntelligentUIStreamView',
      'IntelligentUIView',
      'RENDERED_COMPONENT_TYPES',
      'formatResult',
      'scalarText',
    ]);
  });
});
