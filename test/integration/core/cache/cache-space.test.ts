import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheDb } from '../../../../main/core/cache/cache-db.ts';
import { readResultShape } from '../../../../main/core/cache/result-shape.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startCacheHarness, type CacheHarness } from './cache-harness.ts';
import { downloadKilledMidway } from './killed-child.ts';

// The cache file gives space back: after rounds of a result cached, a download killed mid-way and
// older entries evicted, the file is within a bound of the live data it holds, not at the largest
// it has been.

const ROUNDS = 3;
const ROWS = 150_000;
let harness: CacheHarness;
let cacheDir: string;
let file: string;

beforeAll(async () => {
  harness = await startCacheHarness();
  cacheDir = join(harness.dir, 'core', 'cache');
  file = join(cacheDir, 'results.duckdb');
});
afterAll(async () => harness?.close());

/** Downloads the result into the cache, closed meanwhile, in a child process killed after a few pages. */
async function killedDownload(executionId: string): Promise<void> {
  const client = createServiceClient({ baseUrl: harness.service!.baseUrl, serviceName: 'DUNE', apiKey: harness.service!.demoApiKey ?? '' });
  const read = await readResultShape(client, 'local', executionId, false);
  if (!read.ok) throw new Error(read.error.message);
  const { output } = await downloadKilledMidway(cacheDir, harness.service!.baseUrl, harness.service!.demoApiKey!, read.data.shape);
  expect(output).not.toContain('finished');
}

/** The bytes the cache file's live tables take when written afresh, and the rows of each kept download against its record. */
async function liveData(): Promise<{ bytes: number; kept: [number, number][] }> {
  const copy = join(harness.dir, 'live.duckdb');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run("SET disabled_compression_methods = 'fsst,dict_fsst'");
    await connection.run(`ATTACH '${file}' AS cache (READ_ONLY)`);
    await connection.run(`ATTACH '${copy}' AS live (STORAGE_VERSION 'v1.5.0')`);
    await connection.run('COPY FROM DATABASE cache TO live');
    await connection.run('DETACH live');
    const kept: [number, number][] = [];
    for (const [table, rows] of (await connection.runAndReadAll('SELECT table_name, row_count FROM cache.kept_downloads')).getRows()) {
      const [[count]] = (await connection.runAndReadAll(`SELECT count(*) FROM cache."${String(table)}"`)).getRows() as [[bigint]];
      kept.push([Number(rows), Number(count)]);
    }
    return { bytes: statSync(copy).size, kept };
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(copy, { force: true });
  }
}

describe('the cache file', () => {
  it('is back within a bound of its live data after rounds of kills and evictions', async () => {
    const largest: number[] = [];
    let lastId = '';
    for (let round = 0; round < ROUNDS; round++) {
      const sql = `SELECT i, md5((i + ${round})::VARCHAR) AS h, md5((i * ${round + 2})::VARCHAR) AS g FROM range(${ROWS}) AS t(i)`;
      lastId = await harness.runSql(sql);
      const cached = await harness.cacheWhole(lastId);
      expect(cached.state).toBe('cached');
      const killed = await harness.runSql(`SELECT i, md5(i::VARCHAR) AS h FROM range(${round}, 5000) AS t(i)`);
      await harness.restartCore({}, async () => {
        largest.push(statSync(file).size);
        await killedDownload(killed);
      });
      // only the newest entry fits: the older ones are evicted
      expect(await harness.call('results:cacheSettings', { budgetBytes: cached.bytes! })).toMatchObject({
        ok: true,
        data: { entryCount: 1 },
      });
    }
    await harness.restartCore({}, async () => void largest.push(statSync(file).size));
    // measured while the cache is closed: a second handle on the file in this process would drop DuckDB's lock on it
    let size = 0;
    let live: Awaited<ReturnType<typeof liveData>> = { bytes: 0, kept: [] };
    await harness.restartCore({}, async () => {
      size = statSync(file).size;
      live = await liveData();
    });
    // the file had grown to hold two entries at once, and is back to about the size of its live data
    expect(Math.max(...largest)).toBeGreaterThan(1.5 * live.bytes);
    expect(size).toBeLessThanOrEqual(1.25 * live.bytes);
    expect(existsSync(`${file}.compact`)).toBe(false);
    // the copy kept every row of the entry, in order, and the rows of the downloads killed
    const page = await harness.call('results:getRows', {
      accountId: 'local',
      executionId: lastId,
      startRow: ROWS - 2,
      endRow: ROWS,
      columns: 'i',
    });
    expect(page).toMatchObject({ ok: true, data: { totalRowCount: ROWS, rows: [[ROWS - 2], [ROWS - 1]] } });
    expect(live.kept.length).toBeGreaterThan(0);
    for (const [recorded, held] of live.kept) expect(held).toBe(recorded);
  }, 180_000);
});

describe('the cache file, while the app runs', () => {
  it('gives the space of cleared entries back at once, says they went, and goes on caching and reading', async () => {
    const sql = (seed: number) =>
      `SELECT i, md5((i + ${seed})::VARCHAR) AS h, md5((i * ${seed})::VARCHAR) AS g FROM range(${ROWS}) AS t(i)`;
    const cleared: string[] = [];
    for (const seed of [11, 12]) {
      cleared.push(await harness.runSql(sql(seed)));
      expect(await harness.cacheWhole(cleared.at(-1)!)).toMatchObject({ state: 'cached' });
    }
    const full = statSync(file).size;
    // the budget may have made the first give way to the second already
    const held: string[] = [];
    for (const executionId of cleared) {
      const status = await harness.call('results:cacheStatus', { accountId: 'local', executionId });
      if (status.ok && status.data.state === 'cached') held.push(executionId);
    }
    expect(held).toContain(cleared.at(-1));
    const seen = harness.events.length;
    expect(await harness.call('settings:clearCache', {})).toMatchObject({ ok: true, data: { entryCount: 0 } });
    // the windows showing a cleared result hear that it is no longer cached
    const told = harness.events.slice(seen).filter((e) => e.event === 'results:cacheStatus');
    for (const executionId of held)
      expect(told).toContainEqual({ event: 'results:cacheStatus', payload: expect.objectContaining({ executionId, state: 'absent' }) });
    // the manifest's tables, a block or two
    expect(statSync(file).size).toBeLessThan(full / 10);
    const next = await harness.runSql(sql(13));
    expect(await harness.cacheWhole(next)).toMatchObject({ state: 'cached', rowsLoaded: ROWS });
    const page = await harness.call('results:getRows', { accountId: 'local', executionId: next, startRow: 0, endRow: 2, columns: 'i' });
    expect(page).toMatchObject({ ok: true, data: { fromCache: { fetchedAt: expect.any(String) }, rows: [[0], [1]] } });
  }, 120_000);
});

describe('a compaction cut short', () => {
  it('leaves the cache file as it was, and its fresh copy is removed at the next open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-compaction-'));
    try {
      const db = await openCacheDb(dir);
      await db.exclusive((c) => c.run('CREATE TABLE kept AS SELECT range AS n FROM range(1000)'));
      await db.close();
      // a crash before the rename leaves a fresh copy beside the file, whole or not
      writeFileSync(join(dir, 'results.duckdb.compact'), 'half a copy');
      writeFileSync(join(dir, 'results.duckdb.compact.wal'), 'its log');
      const reopened = await openCacheDb(dir);
      const rows = (await reopened.exclusive((c) => c.runAndReadAll('SELECT count(*) FROM kept'))).getRows();
      await reopened.close();
      expect(rows).toEqual([[1000n]]);
      expect(readdirSync(dir).sort()).toEqual(['results.duckdb']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
