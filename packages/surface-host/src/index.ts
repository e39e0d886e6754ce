/**
 * @lineup/surface-host — mounts untrusted Surfaces in sandboxed `srcdoc` iframes and speaks the host's end of
 * `lineup.surface.v1` (seed 000 §2, §4). Framework-free DOM code.
 */
export type { LineUpSurfaceAPI } from './bridge.js';
export { SurfaceInstances, type SurfaceInstancesOptions, type SurfaceUpdateOutcome } from './instances.js';
export {
  FORBIDDEN_SANDBOX_TOKENS,
  SURFACE_CSP,
  SURFACE_PERMISSIONS_POLICY,
  SURFACE_SANDBOX,
} from './sandbox.js';
export { buildSurfaceSrcdoc, type SurfaceBundleText } from './srcdoc.js';
export {
  type MountSurfaceOptions,
  mountSurface,
  type SurfaceEvent,
  type SurfaceHandle,
  type SurfaceRejection,
} from './surface-frame.js';
