/**
 * @lineup/surface-host — mounts untrusted Surfaces in sandboxed, contained `srcdoc` iframes and speaks the
 * host's end of `lineup.surface.v1` (seed 000 §2, §4). Framework-free DOM code.
 */
export type { LineUpSurfaceAPI } from './bridge.js';
export { buildSurfaceDocuments, type SurfaceBundleText, type SurfaceDocuments } from './documents.js';
export {
  MAX_SPARE_SURFACE_FRAMES,
  type PrepareSurfaceFrameOptions,
  prepareSurfaceFrame,
} from './frame-link.js';
export { SurfaceInstances, type SurfaceInstancesOptions, type SurfaceUpdateOutcome } from './instances.js';
export {
  type McpJsonRpcMessage,
  type McpViewBundle,
  type McpViewHandle,
  type McpViewTransport,
  type MountMcpViewOptions,
  mcpViewBundle,
  mountMcpView,
  type PrepareMcpViewOptions,
  prepareMcpView,
} from './mcp-view.js';
export {
  type MiniAppPageHandle,
  type MiniAppPageText,
  type MountMiniAppPageOptions,
  miniAppPageFromFiles,
  mountMiniAppPage,
} from './miniapp-page.js';
export { type ReferencedSurface, surfaceBundleFromFiles } from './reference.js';
export {
  FORBIDDEN_SANDBOX_TOKENS,
  SURFACE_CSP,
  SURFACE_FORBIDDEN_ELEMENTS,
  SURFACE_PERMISSIONS_POLICY,
  SURFACE_SANDBOX,
  surfaceContentSecurityPolicy,
} from './sandbox.js';
export {
  checkSurfaceBundle,
  type MountSurfaceOptions,
  mountSurface,
  RESIZE_CHANGES_PER_SECOND,
  RESIZE_SHRINK_TOLERANCE,
  type SurfaceEvent,
  type SurfaceHandle,
  type SurfaceRejection,
} from './surface-frame.js';
