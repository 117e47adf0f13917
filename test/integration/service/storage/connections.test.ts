import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../../main/service/storage/duckdb.ts';

// Result pages take a connection each; a released one is kept for the next page rather than made
// again. A kept connection must come back as a new one would: its session set, no failure carried.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-connections-'));
let db: Database;

beforeAll(async () => {
  db = await Database.open(join(dir, 'db.duckdb'), ['CREATE TABLE t AS SELECT range AS n FROM range(10)'], [`SET TimeZone = 'UTC'`]);
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const zone = async (connection: Awaited<ReturnType<Database['connect']>>) =>
  (await connection.runAndReadAll(`SELECT current_setting('TimeZone')`)).getRows()[0]![0];

describe('connections of a database', () => {
  it('hands a released connection out again, with its session', async () => {
    const first = await db.connect();
    db.release(first);
    const again = await db.connect();
    expect(again).toBe(first);
    expect(await zone(again)).toBe('UTC');
    db.release(again);
  });

  it('makes a new one when every kept one is taken, each with the session', async () => {
    const taken = await Promise.all(Array.from({ length: 12 }, () => db.connect()));
    expect(new Set(taken).size).toBe(12);
    for (const connection of taken) expect(await zone(connection)).toBe('UTC');
    for (const connection of taken) db.release(connection);
  });

  it('hands out a connection whose last statement failed, able to read', async () => {
    const failing = await db.connect();
    await expect(failing.run('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    db.release(failing);
    const again = await db.connect();
    expect(again).toBe(failing);
    expect((await again.runAndReadAll('SELECT count(*) FROM t')).getRows()[0]![0]).toBe(10n);
    db.release(again);
  });

  it('ignores a connection released twice', async () => {
    const connection = await db.connect();
    db.release(connection);
    db.release(connection);
    const a = await db.connect();
    const b = await db.connect();
    expect(a).not.toBe(b);
    db.release(a);
    db.release(b);
  });
});
