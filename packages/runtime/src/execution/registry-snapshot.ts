/**
 * The registry as a step reads it, in its own transaction: the tools of the enabled apps (`Descriptors`) and the
 * published inventory. A step reads one small row — the registry's stamp, which every change of the apps or the
 * inventory replaces (`stampRegistry`) — and, while it is the stamp of the last full read, takes that read as it
 * is: a call pays for the apps it touches, not for every app installed. Whatever changed the apps, in this page or
 * another, changed the stamp in the same transaction, so a step never sees a registry older than the one stored.
 */
import {
  type AppRecord,
  type ExecutionTransaction,
  type InventoryRecord,
  registryStampIn,
} from '../storage/database.js';
import { type Descriptors, descriptorsOf } from './descriptors.js';

/** What a step knows of the registry. */
export interface RegistryRead {
  readonly descriptors: Descriptors;
  /** The published inventory with its counter; absent before anything was published. */
  readonly published: InventoryRecord | undefined;
}

export class RegistryReader {
  /** The last full read, under the stamp it was read at. */
  #kept: { readonly stamp: string; readonly read: RegistryRead } | undefined;

  /**
   * The registry in `transaction`: the kept read when the stored stamp is still its stamp, otherwise the apps and the
   * inventory read again (and kept under the stamp).
   */
  async readIn(transaction: ExecutionTransaction): Promise<RegistryRead> {
    const stamp = await registryStampIn(transaction);
    const kept = this.#kept;
    if (stamp !== undefined && kept?.stamp === stamp) return kept.read;
    const [apps, published] = await Promise.all([
      transaction.objectStore('apps').getAll() as Promise<AppRecord[]>,
      transaction.objectStore('inventory').get('current'),
    ]);
    const read: RegistryRead = { descriptors: descriptorsOf(apps), published };
    if (stamp !== undefined) this.#kept = { stamp, read };
    return read;
  }
}
