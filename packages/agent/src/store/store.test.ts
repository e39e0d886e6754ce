import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../test/databases.js';
import { MIGRATIONS, migrate, SchemaVersionError } from './migrations.js';
import type { SqlDatabase } from './sql.js';
import { AgentStore, AgentStoreError } from './store.js';

const key = { deviceId: 'device-a', conversationId: 'conv-1' };
const envelope = (id: string, senderId = 'web-host-aaaa') => ({
  v: 1,
  id,
  type: 'lineup.v1.chat.user_message',
  conversation_id: key.conversationId,
  sender: { kind: 'client', id: senderId },
  payload: { text: `message ${id}` },
});

describe.each(BACKENDS)('the agent store on $name', (backend) => {
  const open: SqlDatabase[] = [];
  const fresh = async (where: 'memory' | 'folder' = 'memory') => {
    const db = await (where === 'folder' ? backend.openFolder() : backend.open());
    open.push(db);
    return db;
  };
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close().catch(() => {});
  });
  afterAll(() => backend.cleanup());

  it('migrates an empty database once, and a second start applies nothing', async () => {
    const db = await fresh();
    expect(await migrate(db)).toEqual(MIGRATIONS.map((migration) => migration.version));
    expect(await migrate(db)).toEqual([]);
    const { rows } = await db.query<{ version: number }>('SELECT version FROM lineup_schema_migrations');
    expect(rows.map((row) => Number(row.version))).toEqual(MIGRATIONS.map((migration) => migration.version));
  });

  it('refuses a database written by a newer version, and changes nothing in it', async () => {
    const db = await fresh();
    await migrate(db);
    await db.query("INSERT INTO lineup_schema_migrations (version, name) VALUES (999, 'from the future')");
    await expect(migrate(db)).rejects.toThrow(SchemaVersionError);
    await expect(migrate(db)).rejects.toThrow(/schema version 999, newer than this @lineup\/agent knows/);
  });

  it('a failing migration leaves no half-applied schema behind', async () => {
    const db = await fresh();
    const broken = [
      ...MIGRATIONS,
      {
        version: 2,
        name: 'broken',
        statements: ['CREATE TABLE lineup_extra (id int)', 'SELECT nope FROM nowhere'],
      },
    ];
    await expect(migrate(db, broken)).rejects.toThrow();
    const { rows } = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_name IN ('lineup_extra', 'lineup_devices')",
    );
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('every start is a new run epoch, also after a reopen', async () => {
    const db = await fresh('folder');
    const first = await AgentStore.open(db);
    const second = await AgentStore.open(db);
    expect(second.epoch).toBeGreaterThan(first.epoch);
    await db.close();
    open.splice(open.indexOf(db), 1);
    const again = await backend.reopen(db);
    open.push(again);
    const third = await AgentStore.open(again);
    expect(third.epoch).toBeGreaterThan(second.epoch);
  });

  it('tokens authenticated at once (one statement) each get their own device; a repeated one, the same; bad ones none', async () => {
    const store = await AgentStore.open(await fresh());
    const tokens = await Promise.all(
      Array.from({ length: 20 }, (_, index) => store.issueDeviceToken(`device-${index}`)),
    );
    await store.revokeDevice('device-3');
    const unknown = `lat_${'Z'.repeat(43)}`;
    const asked = [...tokens, tokens[5] as string, unknown, 'malformed'];
    const devices = await Promise.all(asked.map((token) => store.authenticate(token)));
    expect(devices).toEqual([
      ...tokens.map((_token, index) => (index === 3 ? null : `device-${index}`)),
      'device-5',
      null,
      null,
    ]);
    expect(await store.tokensInForce(asked)).toEqual(devices.map((device) => device !== null));
  });

  it('a device token authenticates its device only; a new token replaces it; a revoked one fails', async () => {
    const store = await AgentStore.open(await fresh());
    const token = await store.issueDeviceToken('device-a', 'Ada’s laptop');
    expect(token).toMatch(/^lat_[A-Za-z0-9_-]{43}$/);
    expect(await store.authenticate(token)).toBe('device-a');
    const other = await store.issueDeviceToken('device-b');
    expect(await store.authenticate(other)).toBe('device-b');
    for (const bad of [
      undefined,
      42,
      '',
      'lat_',
      `${token}x`,
      token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    ])
      expect(await store.authenticate(bad)).toBeNull();
    const rotated = await store.issueDeviceToken('device-a');
    expect(await store.authenticate(token)).toBeNull();
    expect(await store.authenticate(rotated)).toBe('device-a');
    expect(await store.revokeDevice('device-a')).toBe(true);
    expect(await store.authenticate(rotated)).toBeNull();
    expect(await store.revokeDevice('nobody')).toBe(false);
    const { rows } = await store.db.query<{ token_sha256: string }>(
      'SELECT token_sha256 FROM lineup_devices',
    );
    expect(rows.every((row) => !row.token_sha256.includes(other.slice(4)))).toBe(true);
    await expect(store.issueDeviceToken('has space')).rejects.toThrow(AgentStoreError);
    await expect(store.issueDeviceToken('')).rejects.toThrow(/1–128 printable ASCII/);
  });

  it('an envelope is taken once per device, conversation, sender and id — and logged with it', async () => {
    const store = await AgentStore.open(await fresh());
    expect(await store.takeEnvelope(key, envelope('o1'))).toBe('new');
    expect(await store.takeEnvelope(key, envelope('o1'))).toBe('seen');
    // The same id from another device, another conversation or another sender is another envelope.
    expect(await store.takeEnvelope({ ...key, deviceId: 'device-b' }, envelope('o1'))).toBe('new');
    expect(await store.takeEnvelope({ ...key, conversationId: 'conv-2' }, envelope('o1'))).toBe('new');
    expect(await store.takeEnvelope(key, envelope('o1', 'web-host-bbbb'))).toBe('new');
    const log = await store.log(key);
    expect(log.map((entry) => [entry.direction, entry.envelope.id])).toEqual([
      ['in', 'o1'],
      ['in', 'o1'],
    ]);
    await store.logOutgoing(key, { type: 'lineup.v1.chat.agent_message', id: 'a1' });
    expect((await store.log(key, { afterSeq: log[1]?.seq ?? 0 })).map((entry) => entry.type)).toEqual([
      'lineup.v1.chat.agent_message',
    ]);
    expect(await store.lastIncoming(key, 'lineup.v1.chat.user_message')).toMatchObject({ id: 'o1' });
  });

  it('what the agent sent stays undelivered until the device acknowledges it', async () => {
    const store = await AgentStore.open(await fresh());
    for (const id of ['a1', 'a2', 'a3'])
      await store.logOutgoing(key, { type: 'lineup.v1.chat.agent_message', id });
    await store.logOutgoing(
      { ...key, conversationId: 'conv-2' },
      { type: 'lineup.v1.chat.agent_message', id: 'b1' },
    );
    expect((await store.undelivered(key)).map((entry) => entry.envelope.id)).toEqual(['a1', 'a2', 'a3']);
    expect(await store.markDelivered(key.deviceId, 'a2')).toBe(true);
    expect(await store.markDelivered(key.deviceId, 'a2')).toBe(false);
    expect(await store.markDelivered('device-b', 'a1')).toBe(false);
    expect((await store.undelivered(key)).map((entry) => entry.envelope.id)).toEqual(['a1', 'a3']);
  });

  it('taking the same envelope concurrently: exactly one is new', async () => {
    const store = await AgentStore.open(await fresh());
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => store.takeEnvelope(key, envelope('same'))),
    );
    expect(outcomes.filter((outcome) => outcome === 'new')).toHaveLength(1);
    expect(await store.log(key)).toHaveLength(1);
  });

  it('keeps JSON as it was sent: a lone surrogate escape (which jsonb refuses) is taken and read back the same', async () => {
    const store = await AgentStore.open(await fresh());
    const odd = { ...envelope('odd'), payload: { text: 'half a pair: \ud800, and \\u0000 as text' } };
    expect(await store.takeEnvelope(key, odd)).toBe('new');
    const [entry] = await store.log(key);
    expect(JSON.stringify(entry?.envelope)).toBe(JSON.stringify(odd));
    expect(await store.recordCall(key, 'call-odd', 'x.y', { text: '\udfff' })).toBe(true);
    expect((await store.call(key, 'call-odd'))?.arguments).toEqual({ text: '\udfff' });
  });

  it('envelopes taken at once share a statement: each answered, a repeat within the burst new once', async () => {
    const store = await AgentStore.open(await fresh());
    const burst = Array.from({ length: 300 }, (_, index) => envelope(`b${index % 150}`));
    const outcomes = await Promise.all(burst.map((each) => store.takeEnvelope(key, each)));
    expect(outcomes.filter((outcome) => outcome === 'new')).toHaveLength(150);
    // The first of each pair is the new one, and the log keeps the order they came in.
    expect(outcomes.slice(0, 150).every((outcome) => outcome === 'new')).toBe(true);
    expect((await store.log(key)).map((entry) => entry.envelope.id)).toEqual(
      Array.from({ length: 150 }, (_, index) => `b${index}`),
    );
  });

  it('keeps the latest inventory of a conversation', async () => {
    const store = await AgentStore.open(await fresh());
    expect(await store.inventory(key)).toBeNull();
    await store.saveInventory(key, 'r1', { tools: [] });
    await store.saveInventory(key, 'r2', { tools: [{ name: 'pomodoro.start' }] });
    expect(await store.inventory(key)).toEqual({
      revision: 'r2',
      inventory: { tools: [{ name: 'pomodoro.start' }] },
    });
    expect(await store.inventory({ ...key, deviceId: 'device-b' })).toBeNull();
  });

  it('a call is recorded once; its final result applies once; later answers never undo it', async () => {
    const store = await AgentStore.open(await fresh());
    expect(await store.recordCall(key, 'call-1', 'pomodoro.start', { minutes: 25 })).toBe(true);
    expect(await store.recordCall(key, 'call-1', 'pomodoro.start', { minutes: 25 })).toBe(false);
    expect(await store.recordCallAnswer(key, 'call-1', 'receipt', { status: 'accepted' })).toBe('applied');
    expect(await store.recordCallAnswer(key, 'call-1', 'progress', { step: 1 })).toBe('applied');
    expect(await store.recordCallAnswer(key, 'call-1', 'final', { status: 'completed' })).toBe('applied');
    expect(await store.recordCallAnswer(key, 'call-1', 'final', { status: 'failed' })).toBe('duplicate');
    expect(await store.recordCallAnswer(key, 'call-1', 'progress', { step: 2 })).toBe('duplicate');
    expect(await store.recordCallAnswer(key, 'nope', 'final', {})).toBe('unknown_call');
    expect(await store.recordCallAnswer({ ...key, deviceId: 'device-b' }, 'call-1', 'final', {})).toBe(
      'unknown_call',
    );
    expect(await store.call(key, 'call-1')).toMatchObject({
      tool: 'pomodoro.start',
      arguments: { minutes: 25 },
      status: 'final',
      receipt: { status: 'accepted' },
      progress: { step: 1 },
      result: { status: 'completed' },
    });
  });

  it('concurrent final results for one call: exactly one applies', async () => {
    const store = await AgentStore.open(await fresh());
    await store.recordCall(key, 'call-1', 'pomodoro.start', {});
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, index) => store.recordCallAnswer(key, 'call-1', 'final', { index })),
    );
    expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(1);
  });

  describe('the action ledger', () => {
    it('reserves before queuing; the same request reads the existing one; another request is refused', async () => {
      const store = await AgentStore.open(await fresh());
      expect((await store.reserveOperation(key, 'op-1', 'digest-a')).outcome).toBe('reserved');
      const again = await store.reserveOperation(key, 'op-1', 'digest-a');
      expect(again).toMatchObject({ outcome: 'existing', operation: { status: 'queued' } });
      await expect(store.reserveOperation(key, 'op-1', 'digest-b')).rejects.toMatchObject({
        code: 'operation_conflict',
      });
    });

    it('a claim is atomic: one of many concurrent claims wins, and a settled one is not claimed again', async () => {
      const store = await AgentStore.open(await fresh());
      await store.reserveOperation(key, 'op-1', 'd');
      const claims = await Promise.all(Array.from({ length: 6 }, () => store.claimOperation(key, 'op-1')));
      expect(claims.filter((claim) => claim.outcome === 'claimed')).toHaveLength(1);
      expect(await store.settleOperation(key, 'op-1', 'succeeded', { ok: true })).toBe(true);
      expect(await store.settleOperation(key, 'op-1', 'failed', {})).toBe(false);
      expect(await store.claimOperation(key, 'op-1')).toEqual({
        outcome: 'not_claimed',
        status: 'succeeded',
      });
      expect(await store.claimOperation(key, 'op-unknown')).toEqual({ outcome: 'unknown' });
    });

    it('after a restart: a queued operation is never dispatched, a running one is unknown and never retried', async () => {
      const db = await fresh();
      const before = await AgentStore.open(db);
      await before.reserveOperation(key, 'queued-op', 'd1');
      await before.reserveOperation(key, 'running-op', 'd2');
      expect((await before.claimOperation(key, 'running-op')).outcome).toBe('claimed');
      const after = await AgentStore.open(db);
      // While the run that claimed it is alive (its heartbeat beats), the operation is its own and still running.
      expect(await after.operation(key, 'running-op')).toMatchObject({ status: 'running' });
      await before.retire(); // that run ends (a clean close; a killed one stops beating for leaseMs)
      expect(await after.claimOperation(key, 'queued-op')).toEqual({
        outcome: 'not_claimed',
        status: 'failed',
      });
      expect(await after.operation(key, 'queued-op')).toMatchObject({ receipt: { code: 'host_restarted' } });
      expect(await after.operation(key, 'running-op')).toMatchObject({ status: 'unknown' });
      expect(await after.claimOperation(key, 'running-op')).toEqual({
        outcome: 'not_claimed',
        status: 'unknown',
      });
      // The run that claimed it cannot settle it any more either: it is unknown for good.
      expect(await before.settleOperation(key, 'running-op', 'succeeded', {})).toBe(false);
    });
  });
});
