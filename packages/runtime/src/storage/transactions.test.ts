/** Writes issued without awaiting each one's answer: in order, and all or nothing with their transaction. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openRuntimeDatabase } from './database.js';
import { abortQuietly, issue, STRICT } from './transactions.js';

describe('issue', () => {
  it('applies writes not awaited in order: a later read in the transaction sees them, the commit keeps them', async () => {
    const db = await openRuntimeDatabase('db-issue-order');
    const transaction = db.transaction('inventory', 'readwrite', STRICT);
    issue(
      transaction.store.put({ key: 'a', revision: 1 } as never),
      transaction.store.put({ key: 'a', revision: 2 } as never),
    );
    expect(await transaction.store.get('a' as never)).toMatchObject({ revision: 2 });
    await transaction.done;
    expect(await db.get('inventory', 'a' as never)).toMatchObject({ revision: 2 });
    db.close();
  });

  it('a failing write aborts the transaction: its commit rejects and none of its writes is kept', async () => {
    const db = await openRuntimeDatabase('db-issue-fail');
    await db.put('inventory', { key: 'taken', revision: 1 } as never);
    const transaction = db.transaction('inventory', 'readwrite', STRICT);
    issue(
      transaction.store.put({ key: 'other', revision: 1 } as never),
      transaction.store.add({ key: 'taken', revision: 2 } as never),
    );
    await expect(transaction.done).rejects.toThrow();
    expect(await db.get('inventory', 'other' as never)).toBeUndefined();
    expect(await db.get('inventory', 'taken' as never)).toMatchObject({ revision: 1 });
    // The transaction ended: aborting it again throws nothing.
    expect(() => abortQuietly(transaction)).not.toThrow();
    db.close();
  });
});
