import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheDb, type CacheDb } from '../../../../main/core/cache/cache-db.ts';

// The cache's DuckDB keeps the blocks of its file that reads brought into memory up to its limit;
// once the cache is idle it gives them back, and keeps its limit.

let dir: string;
let db: CacheDb;

const MB = 1024 * 1024;
const held = async (connection: DuckDBConnection) =>
  Number((await connection.runAndReadAll('SELECT sum(memory_usage_bytes)::BIGINT FROM duckdb_memory()')).getRowsJS()[0]![0]);
const limit = async (connection: DuckDBConnection) =>
  String((await connection.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRowsJS()[0]![0]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-cache-memory-'));
  db = await openCacheDb(dir);
  await db.exclusive(async (connection) => {
    await connection.run(`CREATE TABLE rows_read AS SELECT i, 'row ' || i AS label, hash(i) AS h FROM range(3000000) t(i)`);
    await connection.run('CHECKPOINT');
  });
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Reads the whole table, which brings its blocks into memory. */
const readAll = (connection: DuckDBConnection) => connection.run('SELECT max(label), sum(h) FROM rows_read');

describe('the cache, idle', () => {
  it('gives back the memory its reads took, and keeps its limit', async () => {
    await db.withConnection(readAll);
    const before = await db.exclusive(held);
    expect(before).toBeGreaterThan(20 * MB);
    await db.giveBackMemoryWhenIdle();
    expect(await db.exclusive(held)).toBeLessThan(before / 4);
    expect(await db.exclusive(limit)).toBe('1.0 GiB');
  });

  it('keeps it while a connection is in use', async () => {
    await db.withConnection(async (connection) => {
      await readAll(connection);
      const before = await db.exclusive(held);
      await db.giveBackMemoryWhenIdle();
      expect(await db.exclusive(held)).toBeGreaterThanOrEqual(before * 0.9);
    });
  });
});
