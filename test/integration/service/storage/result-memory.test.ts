import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultFiles } from '../../../../main/service/results/result-files.ts';
import { ResultStore } from '../../../../main/service/results/result-store.ts';
import type { Database } from '../../../../main/service/storage/duckdb.ts';
import { openResults } from '../../../../main/service/storage/results-file.ts';

// DuckDB keeps what it wrote or read of an attached file in memory until its limit, and gives it back
// only when the file is detached. Results are written through a DuckDB of their own, with a small
// limit; results no one reads for a while are detached, those in use are not. A result just stored
// is attached before its first reader comes, the readers' DuckDB opened for it if it was closed.

const MB = 1024 * 1024;
const folder = mkdtempSync(join(tmpdir(), 'result-memory-'));
let files: ResultFiles;

async function write(id: string, sql: string): Promise<void> {
  const table = await files.create(id);
  try {
    await files.writer.run(`CREATE TABLE ${table.sql} AS ${sql}`);
    await files.checkpoint(id);
  } finally {
    await files.written(id);
  }
}

beforeAll(async () => {
  files = await openResults(folder, '512MB');
  for (const id of ['big', 'other']) await write(id, 'SELECT range AS n, md5(range::VARCHAR) AS s FROM range(1000000)');
});
afterAll(async () => {
  await Promise.all([files.db.close(), files.writer.close()]);
  rmSync(folder, { recursive: true, force: true });
});

const attached = async () =>
  (
    await files.db.rows<{ name: string }>(
      `SELECT database_name AS name FROM duckdb_databases() WHERE starts_with(database_name, 'result_') ORDER BY 1`,
    )
  ).map((row) => row.name);
const tableMemory = async (db: Database) =>
  Number(
    (await db.rows<{ bytes: bigint }>(`SELECT memory_usage_bytes AS bytes FROM duckdb_memory() WHERE tag = 'BASE_TABLE'`)).at(0)?.bytes,
  );
const readAll = (id: string) =>
  files.use(id, async (table) => (await files.db.rows<{ n: bigint }>(`SELECT count(DISTINCT s) AS n FROM ${table.sql}`)).at(0)?.n);

describe('a result being written', () => {
  it('goes on to its file, leaving the memory of neither DuckDB full of it', async () => {
    await write('long', 'SELECT random() AS a, random() AS b FROM range(15000000)');
    expect(statSync(files.path('long')).size).toBeGreaterThan(200 * MB);
    expect(await tableMemory(files.writer)).toBeLessThanOrEqual(128 * MB);
    expect(await tableMemory(files.db)).toBeLessThan(MB);
    expect(await attached()).toEqual([]);
    expect(
      await files.use('long', async (table) => (await files.db.rows<{ n: bigint }>(`SELECT count(*) AS n FROM ${table.sql}`)).at(0)?.n),
    ).toBe(15000000n);
  });
});

describe('results read lately', () => {
  it('stay attached up to 64 MB of files, and the one read last whatever its size', async () => {
    await write('small', 'SELECT 1 AS n');
    await files.detachIdle(0);
    await files.use('long', async () => undefined);
    expect(await attached()).toEqual(['result_long']);
    await readAll('big');
    expect(await attached()).toEqual(['result_big']);
    await files.use('small', async () => undefined);
    expect(await attached()).toEqual(['result_big', 'result_small']);
    await files.drop('long');
    await files.drop('small');
  });
});

describe('a result just stored', () => {
  it('is attached for its first reader, the readers’ DuckDB opened for it; one dropped meanwhile is not', async () => {
    const store = new ResultStore(files, join(folder, 'tmp'));
    await files.detachIdle(0);
    await files.db.closeIdle(0);
    await write('fresh', 'SELECT range AS n FROM range(10)');
    await store.ready('fresh');
    expect(await attached()).toEqual(['result_fresh']);
    expect(await files.use('fresh', async (table) => (await files.db.rows(`SELECT sum(n)::INTEGER AS s FROM ${table.sql}`))[0])).toEqual({
      s: 45,
    });
    await store.drop('fresh');
    await store.ready('fresh');
    expect(await attached()).toEqual([]);
  });
});

describe('results idle for a while', () => {
  it('are detached, and what DuckDB held of them is given back', async () => {
    expect(await readAll('big')).toBe(1000000n);
    expect(await attached()).toEqual(['result_big']);
    const held = await tableMemory(files.db);
    expect(held).toBeGreaterThan(10 * MB);

    await files.detachIdle(0);
    expect(await attached()).toEqual([]);
    expect(await tableMemory(files.db)).toBeLessThan(held / 10);
  });

  it('are not detached before their time', async () => {
    await readAll('big');
    await files.detachIdle(60_000);
    expect(await attached()).toEqual(['result_big']);
  });

  it('are not detached while someone reads them', async () => {
    await files.detachIdle(0);
    await files.acquire('other');
    try {
      await readAll('big');
      await files.detachIdle(0);
      expect(await attached()).toEqual(['result_other']);
    } finally {
      await files.release('other');
    }
    await files.detachIdle(0);
    expect(await attached()).toEqual([]);
  });

  it('read the same once attached again', async () => {
    expect(await readAll('big')).toBe(1000000n);
    expect(await readAll('other')).toBe(1000000n);
  });
});
