import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus, ExecutionUpdate } from '../../../../main/contract/index.ts';
import { openCacheDb } from '../../../../main/core/cache/cache-db.ts';
import type { ResultShape } from '../../../../main/core/cache/download.ts';
import { listEntries } from '../../../../main/core/cache/manifest.ts';
import { openResultCache, type ResultCache } from '../../../../main/core/cache/result-cache.ts';
import { storageType } from '../../../../main/core/cache/storage-types.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startCacheHarness, until, type CacheHarness } from './cache-harness.ts';
import { downloadKilledMidway } from './killed-child.ts';
import { downloadPageByPage } from './page-by-page.ts';

// The cache's life: a write killed half-way leaves the previous entry as it was; entries are
// evicted least recently used past the budget, and once they expire; a result above the budget
// is read from the service; a download can be cancelled; a cached result works offline.

let harness: CacheHarness;

beforeAll(async () => {
  harness = await startCacheHarness({ maxPageRows: 500 });
});
afterAll(async () => harness?.close());

function tablesIn(cacheDir: string) {
  return openCacheDb(cacheDir).then(async (db) => {
    const tables = await db.exclusive(async (c) =>
      (
        await c.runAndReadAll(
          "SELECT table_name FROM duckdb_tables() WHERE table_name NOT IN ('cache_entries', 'kept_downloads') ORDER BY 1",
        )
      )
        .getRows()
        .map((r) => String(r[0])),
    );
    const entries = await listEntries(db);
    const kept = await db.exclusive(async (c) =>
      (await c.runAndReadAll('SELECT execution_id, table_name, row_count FROM kept_downloads'))
        .getRows()
        .map(([executionId, tableName, rows]) => ({
          executionId: String(executionId),
          tableName: String(tableName),
          rows: Number(rows),
        })),
    );
    await db.close();
    return { tables, entries, kept };
  });
}

/** A finished run's result as a download knows it (the demo trades: 5,000 rows). */
async function shapeOf(executionId: string): Promise<ResultShape> {
  const execution = await harness.call('executions:get', { accountId: 'local', executionId });
  const result = (execution.ok ? execution.data : null) as ExecutionUpdate;
  return {
    accountId: 'local',
    executionId,
    columnNames: result.result!.columnNames,
    wireTypes: result.result!.columnTypes,
    storageTypes: result.result!.columnTypes.map(storageType),
    totalRowCount: 5000,
    totalBytes: result.result!.totalBytes,
    isPartial: false,
    expiresAt: result.expiresAt,
  };
}

describe('the result cache', () => {
  it('keeps the previous entry when a write is killed half-way', async () => {
    const executionId = await harness.run('Demo trades');
    const cached = await harness.cacheWhole(executionId);
    expect(cached.state).toBe('cached');
    const cacheDir = join(harness.dir, 'core', 'cache');
    const shape = await shapeOf(executionId);
    let before: Awaited<ReturnType<typeof tablesIn>> | undefined;
    let output = '';
    await harness.restartCore({}, async () => {
      before = await tablesIn(cacheDir);
      ({ output } = await downloadKilledMidway(cacheDir, harness.service!.baseUrl, harness.service!.demoApiKey!, shape));
    });
    expect(output).not.toContain('finished');
    expect(output).toMatch(/rows 1500/);

    const status = await harness.call('results:cacheStatus', { accountId: 'local', executionId });
    expect(status).toMatchObject({ ok: true, data: { state: 'cached', rowsLoaded: 5000, fetchedAt: cached.fetchedAt } });
    const page = await harness.call('results:getRows', {
      accountId: 'local',
      executionId,
      startRow: 4990,
      endRow: 5000,
      columns: 'trade_id',
    });
    expect(page).toMatchObject({ ok: true, data: { totalRowCount: 5000, rows: Array.from({ length: 10 }, (_, i) => [4991 + i]) } });
    // the half-loaded table of the killed download is kept, with the rows on disk, for the next start to go on from
    await harness.restartCore({}, async () => {
      const after = await tablesIn(cacheDir);
      expect(after.entries).toEqual(before!.entries);
      const added = after.tables.filter((table) => !before!.tables.includes(table));
      expect(added).toEqual(after.kept.map((kept) => kept.tableName));
      expect(after.kept).toEqual([{ executionId, tableName: added[0], rows: expect.any(Number) }]);
      expect(after.kept[0]!.rows).toBeGreaterThan(0);
    });
    // and its page files with it
    expect(existsSync(join(cacheDir, 'downloads')) ? readdirSync(join(cacheDir, 'downloads')) : []).toEqual([]);
  }, 90_000);

  it('asks for its rows to be written back to disk after each load of a download', async () => {
    const shape = await shapeOf(await harness.run('Demo trades'));
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-writeback-'));
    const db = await openCacheDb(dir);
    let writeBacks = 0;
    let loads = 0;
    // the download's loads are its INSERT statements (up to ten for the 5,000 rows: pages that wait go in together)
    const counted = (connection: DuckDBConnection) =>
      new Proxy(connection, {
        get(target, key) {
          const value: unknown = Reflect.get(target, key);
          if (key === 'run')
            return (sql: string, ...rest: unknown[]) => (
              (loads += Number(sql.startsWith('INSERT INTO "r_'))),
              target.run(sql, ...(rest as []))
            );
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    try {
      const outcome = await downloadPageByPage({
        db: {
          ...db,
          writeBack: () => void writeBacks++,
          withConnection: (work) => db.withConnection((connection) => work(counted(connection))),
        },
        dir,
        baseUrl: harness.service!.baseUrl,
        apiKey: harness.service!.demoApiKey!,
        shape,
      });
      expect(outcome).toMatchObject({ ok: true, data: { rowCount: 5000 } });
      expect(loads).toBeGreaterThan(1);
      expect(writeBacks).toBe(loads);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('reads a result above the budget from the service, page by page', async () => {
    const executionId = await harness.run('Demo trades');
    // a lower budget evicts at once what no longer fits
    expect(await harness.call('results:cacheSettings', { budgetBytes: 10_000 })).toMatchObject({
      ok: true,
      data: { budgetBytes: 10_000, entryCount: 0, usedBytes: 0 },
    });
    // the setting is kept across restarts
    await harness.restartCore();
    expect(await harness.call('results:cacheSettings', {})).toMatchObject({ ok: true, data: { budgetBytes: 10_000 } });
    const status = await harness.call('results:cache', { accountId: 'local', executionId });
    expect(status).toMatchObject({ ok: true, data: { state: 'too_large', totalRowCount: 5000, budgetBytes: 10_000 } });
    const page = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 5 });
    expect(page.ok && page.data.fromCache).toBeUndefined();
    expect(page.ok && page.data.rows).toHaveLength(5);
    expect(await harness.call('results:cacheSettings', { budgetBytes: 2 * 1024 ** 3 })).toMatchObject({
      ok: true,
      data: { budgetBytes: 2 * 1024 ** 3 },
    });
  });

  it('cancels a download and leaves the cache as it was', async () => {
    const executionId = await harness.run('Demo trades');
    const started = await harness.call('results:cache', { accountId: 'local', executionId });
    expect(started).toMatchObject({ ok: true, data: { state: 'downloading' } });
    const cancelled = await harness.call('results:cacheCancel', { accountId: 'local', executionId });
    expect(cancelled).toMatchObject({ ok: true, data: { state: 'cancelled', rowsLoaded: 0 } });
    const last = harness.events.filter((e) => e.event === 'results:cacheStatus').at(-1)!.payload as CacheStatus;
    expect(last).toMatchObject({ executionId, state: 'cancelled' });
    const page = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 5 });
    expect(page.ok && page.data.fromCache).toBeUndefined();
    expect((await harness.call('results:cache', { accountId: 'local', executionId })).ok).toBe(true);
  });

  it('keeps browsing and filtering a cached result when the service is gone', async () => {
    const executionId = await harness.run('Demo trades');
    const notCached = await harness.run('Demo trades');
    const cached = await harness.cacheWhole(executionId);
    await harness.stopService();
    const page = await harness.call('results:getRows', {
      accountId: 'local',
      executionId,
      startRow: 0,
      endRow: 3,
      filters: "chain = 'base'",
      sortBy: 'trade_id desc',
      columns: 'trade_id,chain',
    });
    expect(page).toEqual({
      ok: true,
      data: {
        columns: [
          { name: 'trade_id', type: 'bigint' },
          { name: 'chain', type: 'varchar' },
        ],
        rows: [
          [4998, 'base'],
          [4993, 'base'],
          [4988, 'base'],
        ],
        startRow: 0,
        totalRowCount: 1000,
        isPartial: false,
        fromCache: { fetchedAt: cached.fetchedAt },
      },
    });
    const away = await harness.call('results:getRows', { accountId: 'local', executionId: notCached, startRow: 0, endRow: 3 });
    expect(away).toMatchObject({ ok: false, error: { code: 'unreachable' } });
  }, 90_000);
});

describe("the cache's file", () => {
  it("is written in DuckDB's newer format, with its text not FSST-compressed: both load a download with less work", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-format-'));
    const db = await openCacheDb(dir);
    try {
      const { version, compressions } = await db.exclusive(async (c) => {
        // text of a few values, and text of many: DuckDB would keep both as dictionaries of FSST-compressed strings
        await c.run(
          "CREATE TABLE text AS SELECT ['base', 'ethereum', 'arbitrum'][i % 3 + 1] AS chain, md5(i::VARCHAR) AS hash FROM range(200000) AS t(i)",
        );
        await c.run('CHECKPOINT');
        const tags = (await c.runAndReadAll('SELECT tags::VARCHAR FROM duckdb_databases() WHERE NOT internal')).getRows();
        const used = await c.runAndReadAll("SELECT DISTINCT compression FROM pragma_storage_info('text') WHERE segment_type = 'VARCHAR'");
        return { version: String(tags[0]?.[0]), compressions: used.getRows().map(([name]) => String(name)) };
      });
      expect(version).toContain('storage_version=v1.5.0');
      expect(compressions).toEqual(['Uncompressed']);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the cache file's write-back", () => {
  /** Whether another process can open the cache's file in DuckDB now. */
  function openElsewhere(file: string): string {
    const script = `import { DuckDBInstance } from '@duckdb/node-api'; await DuckDBInstance.create(${JSON.stringify(file)}).then(() => console.log('opened'), (e) => console.log(e.message));`;
    return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' }).trim();
  }

  it("keeps DuckDB's lock on the file while written back, and after", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-writeback-'));
    const file = join(dir, 'results.duckdb');
    const db = await openCacheDb(dir);
    try {
      await db.exclusive((c) => c.run('CREATE TABLE rows AS SELECT range AS n FROM range(300000)'));
      db.writeBack();
      db.writeBack();
      // the write-back's own descriptor must not be closed while DuckDB holds the file: that would drop DuckDB's lock
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(openElsewhere(file)).toMatch(/lock/i);
    } finally {
      await db.close();
    }
    expect(openElsewhere(file)).toBe('opened');
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});

describe('eviction', () => {
  let dir: string;
  let cache: ResultCache;
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const statuses: CacheStatus[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'querydesk-evict-'));
  });
  afterAll(async () => {
    await cache?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function cacheOne(client: ReturnType<typeof createServiceClient>, executionId: string) {
    const seen = statuses.length;
    const started = await cache.start('local', client, executionId, false);
    expect(started).toMatchObject({ ok: true, data: { state: 'downloading' } });
    await until(() => statuses.slice(seen).some((s) => s.executionId === executionId && s.state !== 'downloading'));
    clock += 120_000;
  }

  it('drops the least recently used entries past the budget, and expired ones', async () => {
    const fresh = await startCacheHarness({ maxPageRows: 2000 });
    try {
      const client = createServiceClient({ baseUrl: fresh.service!.baseUrl, apiKey: fresh.service!.demoApiKey!, serviceName: 'DUNE' });
      const [a, b, c] = [await fresh.run('Demo trades'), await fresh.run('Demo trades'), await fresh.run('Demo trades')];
      const status = await client.executions.status(a);
      const bytes = status.ok ? status.data.resultMetadata!.totalResultSetBytes! : 0;
      // c finished last, so it expires last
      const last = await client.executions.status(c);
      const expiresAt = Date.parse(last.ok ? last.data.expiresAt! : '');
      clock = Date.now();
      const open = () =>
        openResultCache({ dir, budgetBytes: Math.floor(bytes * 2.5), onStatus: (s) => statuses.push(s), now: () => new Date(clock) });
      cache = await open();
      await cacheOne(client, a);
      await cacheOne(client, b);
      expect(await cache.use('local', a)).not.toBeNull(); // a is now used more recently than b
      clock += 120_000;
      await cacheOne(client, c);
      expect((await cache.status('local', a)).state).toBe('cached');
      expect((await cache.status('local', b)).state).toBe('absent');
      expect((await cache.status('local', c)).state).toBe('cached');

      // past expires_at an entry is gone, whether asked for or found at open
      clock = expiresAt + 1000;
      expect(await cache.use('local', a)).toBeNull();
      await cache.close();
      cache = await open();
      expect((await cache.status('local', c)).state).toBe('absent');

      // a removed account takes its entries with it
      clock = Date.now();
      await cacheOne(client, b);
      await cache.forgetAccount('other');
      expect((await cache.status('local', b)).state).toBe('cached');
      await cache.forgetAccount('local');
      expect((await cache.status('local', b)).state).toBe('absent');

      // and Clear in Settings takes them all
      await cacheOne(client, a);
      await cacheOne(client, b);
      expect((await cache.usage()).entryCount).toBe(2);
      await cache.clear();
      expect(await cache.usage()).toMatchObject({ entryCount: 0, usedBytes: 0 });
      expect((await cache.status('local', a)).state).toBe('absent');
    } finally {
      await fresh.close();
    }
  }, 90_000);
});
