/**
 * Ownership's statements are gathered into batches (one statement for the claims, marks or reads of many
 * conversations): each request still gets exactly its own conversation's answer, fenced by epoch as before.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../test/databases.js';
import { Ownership } from './owners.js';
import type { SqlDatabase } from './sql.js';
import { AgentStore, type ConversationKey } from './store.js';

const keyOf = (conversationId: string): ConversationKey => ({ deviceId: 'device-o', conversationId });
const envelope = (conversationId: string, id: string) => ({
  v: 1,
  id,
  type: 'lineup.v1.chat.user_message',
  conversation_id: conversationId,
  sender: { kind: 'client', id: 'web-host' },
  payload: { text: `${conversationId} ${id}` },
});

describe.each(BACKENDS)('ownership in batches on $name', (backend) => {
  const open: SqlDatabase[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close().catch(() => {});
  });
  afterAll(() => backend.cleanup());

  async function twoWorkers() {
    const db = await backend.open();
    open.push(db);
    const a = await AgentStore.open(db, { worker: 'a' });
    const b = await AgentStore.open(db, { worker: 'b' });
    for (const conversation of ['k1', 'k2', 'k3'])
      for (const id of ['m1', 'm2', 'm3'])
        await a.takeEnvelope(keyOf(conversation), envelope(conversation, `${conversation}-${id}`));
    return { db, a: new Ownership(a), b: new Ownership(b) };
  }

  it('concurrent claims of two workers: each conversation gets exactly one owner; a repeated key, one answer', async () => {
    const { a, b } = await twoWorkers();
    const [a1, a2, a1Again, b2, b3] = await Promise.all([
      a.claim(keyOf('k1')),
      a.claim(keyOf('k2')),
      a.claim(keyOf('k1')),
      b.claim(keyOf('k2')),
      b.claim(keyOf('k3')),
    ]);
    expect(a1).toBe(0);
    expect(a1Again).toBe(0);
    expect(b3).toBe(0);
    // k2: one of the two, never both.
    expect([a2, b2].filter((claimed) => claimed !== null)).toEqual([0]);
    expect(await b.claim(keyOf('k1'))).toBeNull(); // a live worker holds it
    expect(await a.claim(keyOf('k3'))).toBeNull();
    expect(await a.claim(keyOf('k1'))).toBe(0); // its own again
  });

  it('marks are fenced per conversation: the owner’s count, the other worker’s refused, the highest seq kept', async () => {
    const { db, a, b } = await twoWorkers();
    await Promise.all([a.claim(keyOf('k1')), b.claim(keyOf('k2'))]);
    const [k1] = await Promise.all([a.incoming(keyOf('k1'), 0)]);
    const seqs = (k1 ?? []).map((entry) => entry.seq);
    const marks = await Promise.all([
      a.handled(keyOf('k1'), seqs[1] as number),
      a.handled(keyOf('k1'), seqs[0] as number), // a lower seq in the same batch never lowers the mark
      b.handled(keyOf('k1'), seqs[2] as number), // not b's
      a.handled(keyOf('k2'), 999_999), // not a's
    ]);
    expect(marks).toEqual([true, true, false, false]);
    const { rows } = await db.query<{ conversation_id: string; handled_seq: string }>(
      `SELECT conversation_id, handled_seq FROM lineup_conversations WHERE device_id = 'device-o' ORDER BY 1`,
    );
    expect(rows.map((row) => [row.conversation_id, Number(row.handled_seq)])).toEqual([
      ['k1', seqs[1]],
      ['k2', 0],
      ['k3', 0],
    ]);
  });

  it('reads in one batch: each its own conversation’s envelopes after its seq, in order, at most its limit', async () => {
    const { a } = await twoWorkers();
    const all = await a.incoming(keyOf('k2'), 0);
    expect(all.map((entry) => entry.envelope.id)).toEqual(['k2-m1', 'k2-m2', 'k2-m3']);
    const [k1, k2After, k3Limited, none] = await Promise.all([
      a.incoming(keyOf('k1'), 0),
      a.incoming(keyOf('k2'), all[0]?.seq as number),
      a.incoming(keyOf('k3'), 0, 2),
      a.incoming(keyOf('nobody'), 0),
    ]);
    expect(k1?.map((entry) => entry.envelope.id)).toEqual(['k1-m1', 'k1-m2', 'k1-m3']);
    expect(k2After?.map((entry) => entry.envelope.id)).toEqual(['k2-m2', 'k2-m3']);
    expect(k3Limited?.map((entry) => entry.envelope.id)).toEqual(['k3-m1', 'k3-m2']);
    expect(none).toEqual([]);
    expect(
      k1?.every((entry) => entry.direction === 'in' && entry.type === 'lineup.v1.chat.user_message'),
    ).toBe(true);
  });
});
