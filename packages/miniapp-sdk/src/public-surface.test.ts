import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as entry from './index.js';
import * as pageEntry from './page.js';
import * as viteEntry from './vite.js';

// The public surface is pinned: adding, removing or renaming an export or an entry point fails here, so an
// API change is always deliberate and comes with a changeset (VERSIONING.md).
describe('@lineup/miniapp-sdk public surface', () => {
  it('exports exactly the pinned entry points', () => {
    expect(Object.keys(packageJson.exports)).toEqual(['.', './vite', './package.json']);
  });

  it('exports exactly the pinned names from "."', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'MINIAPP_INSTANCE_PARAMETER',
      'MINIAPP_MANIFEST_FILE',
      'MiniAppRequestError',
      'agentTool',
      'createMiniAppClient',
      'defineAgentTools',
      'generateManifest',
      'instanceIdFromHash',
      'manifestText',
    ]);
  });

  it('exports exactly the pinned names from "./vite"', () => {
    expect(Object.keys(viteEntry).sort()).toEqual([
      'DEV_BUNDLE_PATH',
      'HARNESS_PATH',
      'MINIAPP_MANIFEST_FILE',
      'MiniAppBuildError',
      'generateManifest',
      'lineupMiniApp',
      'manifestText',
    ]);
  });

  it('gives a page built by the plugin (page.ts, not an entry point) exactly the names of "."', () => {
    expect(Object.keys(pageEntry).sort()).toEqual(Object.keys(entry).sort());
  });
});
