import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentStore, AgentStoreError, openPGlite } from '@lineup/agent';
import { hashCanonicalJSON } from '@lineup/shared';

const key = { deviceId: 'laptop', conversationId: 'conv-1' };
// An operation id names one request: the ledger keeps a digest of it (here SHA-256 of its canonical JSON).
const digest = (request: object) => hashCanonicalJSON(request);

// The action ledger across a restart: an operation runs at most once, and after a restart nothing is run again:
// a queued one fails as `host_restarted`, a running one reads `unknown`.
export async function main() {
  const folder = mkdtempSync(join(tmpdir(), 'lineup-agent-example-'));
  try {
    const first = await AgentStore.open(await openPGlite(folder));
    const book = { action: 'book', train: '08:12' };
    await first.reserveOperation(key, 'op-book', digest(book)); // 'reserved', status 'queued'
    const again = await first.reserveOperation(key, 'op-book', digest(book)); // the same request again
    const conflict = await first
      .reserveOperation(key, 'op-book', digest({ action: 'cancel' }))
      .catch((error: unknown) => (error instanceof AgentStoreError ? error.code : error));
    const claimed = await first.claimOperation(key, 'op-book'); // exactly one caller gets 'claimed'
    const claimedTwice = await first.claimOperation(key, 'op-book');
    await first.settleOperation(key, 'op-book', 'succeeded', { ticket: 'T-1' });

    await first.reserveOperation(key, 'op-queued', digest({ action: 'remind' })); // never claimed
    await first.reserveOperation(key, 'op-running', digest({ action: 'pay' }));
    await first.claimOperation(key, 'op-running'); // running when the process stops
    // The run ends: a clean close says so at once (a killed process stops its heartbeat, and after `leaseMs` it
    // counts as ended the same way). While a run lives, its running operations stay its own.
    await first.retire();
    await first.close();

    const second = await AgentStore.open(await openPGlite(folder));
    const queued = await second.claimOperation(key, 'op-queued'); // never dispatched after a restart
    const settledLate = await second.settleOperation(key, 'op-running', 'succeeded', null); // not this run's
    const result = {
      again: again.outcome, // 'existing'
      conflict, // 'operation_conflict'
      claimed: claimed.outcome, // 'claimed'
      claimedTwice, // { outcome: 'not_claimed', status: 'running' }
      queued, // { outcome: 'not_claimed', status: 'failed' }
      settledLate, // false
      book: await second.operation(key, 'op-book'), // succeeded, { ticket: 'T-1' }
      queuedRecord: await second.operation(key, 'op-queued'), // failed, { code: 'host_restarted' }
      running: await second.operation(key, 'op-running'), // unknown: its effect is not known
    };
    await second.close();
    return result;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
