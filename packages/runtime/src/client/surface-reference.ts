/**
 * The seam through which an `AgentClient` asks whether a `ui.open` by reference can be honoured, and the answers
 * it may get. An `AppRegistry` implements it; both import it from here, so neither imports the other.
 */
import type { SurfaceReference } from '@lineup/shared/protocol';

/**
 * What a `ui.open` by reference finds: `available` (an enabled app declares that Surface), `unknown_reference`
 * (no such app or Surface was ever installed here), `revoked` (its app was disabled or uninstalled).
 */
export type SurfaceReferenceStatus = 'available' | 'unknown_reference' | 'revoked';

/** Whether a `ui.open` by reference names a Surface this host can open now (an `AppRegistry`). */
export interface SurfaceReferenceChecker {
  checkSurfaceReference(reference: SurfaceReference): Promise<SurfaceReferenceStatus>;
}
