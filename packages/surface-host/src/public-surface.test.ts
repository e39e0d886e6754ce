import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as entry from './index.js';

// The public surface is pinned: adding, removing or renaming an export or an entry point fails here, so an
// API change is always deliberate and comes with a changeset (VERSIONING.md).
describe('@lineup/surface-host public surface', () => {
  it('exports exactly the pinned entry points', () => {
    expect(Object.keys(packageJson.exports)).toEqual(['.', './package.json']);
  });

  it('exports exactly the pinned names from "."', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'FORBIDDEN_SANDBOX_TOKENS',
      'MAX_SPARE_SURFACE_FRAMES',
      'RESIZE_CHANGES_PER_SECOND',
      'RESIZE_SHRINK_TOLERANCE',
      'SURFACE_CSP',
      'SURFACE_FORBIDDEN_ELEMENTS',
      'SURFACE_PERMISSIONS_POLICY',
      'SURFACE_SANDBOX',
      'SurfaceInstances',
      'buildSurfaceDocuments',
      'checkSurfaceBundle',
      'mcpViewBundle',
      'miniAppPageFromFiles',
      'mountMcpView',
      'mountMiniAppPage',
      'mountSurface',
      'prepareMcpView',
      'prepareSurfaceFrame',
      'surfaceBundleFromFiles',
      'surfaceContentSecurityPolicy',
    ]);
  });
});
