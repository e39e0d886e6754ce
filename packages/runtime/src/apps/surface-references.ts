/**
 * What a `ui.open` by reference finds (seed 000 §5.1): a Surface an enabled app declares is `available`; one whose
 * app is disabled or was uninstalled is `revoked`; anything else is `unknown_reference`. Never a fallback: a
 * Surface that is not available is refused, and nothing is opened or fetched.
 */
import { LineUpProtocolError } from '@lineup/shared';
import type { SurfaceReference } from '@lineup/shared/protocol';
import type { SurfaceReferenceStatus } from '../client/surface-reference.js';
import type { RegistryContext } from './registry-persistence.js';

/** See `AppRegistry.checkSurfaceReference`. */
export async function checkSurfaceReference(
  context: RegistryContext,
  reference: SurfaceReference,
): Promise<SurfaceReferenceStatus> {
  const app = await context.db.get('apps', reference.app_id);
  if (app === undefined) {
    const history = await context.db.getAllFromIndex('audit', 'by_app', reference.app_id);
    return history.some((entry) => entry.type === 'app_uninstalled') ? 'revoked' : 'unknown_reference';
  }
  if (
    app.kind === 'mcp_server' ||
    !app.manifest.surfaces.some((surface) => surface.id === reference.surface_id)
  )
    return 'unknown_reference';
  return app.enabled ? 'available' : 'revoked';
}

/** The refusal of a Surface that is not `available`, saying why. */
export function surfaceUnavailable(
  reference: SurfaceReference,
  status: Exclude<SurfaceReferenceStatus, 'available'>,
): LineUpProtocolError {
  return new LineUpProtocolError([
    {
      path: 'surface',
      code: 'unknown_reference',
      message:
        status === 'revoked'
          ? `${reference.app_id} is disabled or was removed; its Surfaces cannot be opened.`
          : `No enabled app ${reference.app_id} declares a Surface ${reference.surface_id}.`,
    },
  ]);
}
