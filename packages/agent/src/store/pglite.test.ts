import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open.js';
import { openPGlite, PGLITE_LOCK_FILE, StoreBusyError } from './pglite.js';

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'lineup-agent-lock-'));
  folders.push(made);
  return made;
};
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('an embedded store folder serves one process at a time', () => {
  it('a second open is refused while the first holds it; after close it opens again', async () => {
    const where = folder();
    const first = await openPGlite(where);
    expect(readFileSync(join(where, PGLITE_LOCK_FILE), 'utf8')).toBe(String(process.pid));
    await expect(openPGlite(where)).rejects.toThrow(StoreBusyError);
    await expect(openPGlite(where)).rejects.toThrow(/open in this process already/);
    await first.close();
    const second = await openPGlite(where);
    expect((await second.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await second.close();
  });

  it('a lock left by a process that is gone is taken over; one of a live process is not', async () => {
    const where = folder();
    writeFileSync(join(where, PGLITE_LOCK_FILE), '2147483646');
    const db = await openPGlite(where);
    await db.close();
    writeFileSync(join(where, PGLITE_LOCK_FILE), String(process.ppid));
    await expect(openPGlite(where)).rejects.toThrow(/in another process \(pid \d+\)/);
  });

  it('openDatabase refuses an empty location and names the server it could not reach', async () => {
    expect(() => openDatabase('')).toThrow(/give a folder for the embedded database or a postgres:\/\/ URL/);
    await expect(openDatabase('postgres://nobody:secret@127.0.0.1:1/none')).rejects.toThrow(
      /Could not connect to PostgreSQL at postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none/,
    );
  });
});
