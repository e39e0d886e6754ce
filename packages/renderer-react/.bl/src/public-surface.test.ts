import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as entry from './index.js';

// The public surface is pinned: adding, removing or renaming an export or an entry point fails here, so an
// API change is always deliberate and comes with a changeset (VERSIONING.md).
describe('@lineup/renderer-react public surface', () => {
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
