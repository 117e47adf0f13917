import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheDb, type CacheDb } from '../../../../main/core/cache/cache-db.ts';
import { readCachedPage, readCachedSample } from '../../../../main/core/cache/cached-reads.ts';
import { downloadResult, stagingTableName, type ResultShape } from '../../../../main/core/cache/download.ts';
import { listEntries, removeEntry, type CacheEntry } from '../../../../main/core/cache/manifest.ts';
import { PageFolds } from '../../../../main/core/cache/page-folds.ts';
import { isPagesView, pagesFolder, tableOf } from '../../../../main/core/cache/pages-view.ts';
import { openResultCache } from '../../../../main/core/cache/result-cache.ts';
import { readResultShape } from '../../../../main/core/cache/result-shape.ts';
import { LocalSql } from '../../../../main/core/local-sql/local-sql.ts';
import { profileFromCache } from '../../../../main/core/profile/column-profile.ts';
import { readRowRange } from '../../../../main/core/results/read-range.ts';
import { viewOf } from '../../../../main/core/results/view.ts';
import { createServiceClient, type ServiceClient } from '../../../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { finishedSql } from './finished-run.ts';

// A new download of Parquet pages ends once its last page is on disk: the entry's rows are then
// its pages read in place, through a view, until they are folded into a table. Read in place, the
// result answers as the service does (pages, sorts whose ties keep the result's order, filters,
// totals, samples, profiles); folded, it answers the same, the table holds the rows in order, the
// pages are gone, and a reader given the entry before the fold reads the table through the view.
// An entry removed while read in place takes its pages with it, and a fold that finds its entry
// gone drops its own table. Local SQL offers such a result with its own columns only.

const TOTAL = 1500;
const PAGE_ROWS = 400;
// ties in `grp` (a sort on it alone keeps the result's order within each), NULLs, a decimal sent
// as a double, integers past 2^64 sent as text, timestamps
const SQL = `SELECT
  i AS id,
  i % 7 AS grp,
  CASE WHEN i % 5 = 0 THEN NULL ELSE 'label ' || (i % 13) END AS label,
  (i * 0.25)::DECIMAL(10, 2) AS price,
  i::HUGEINT * 100000000000000000000 + 3 AS big,
  TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 61) AS at
FROM range(0, ${TOTAL}) AS t(i)`;

const VIEWS = [
  { start: 0, end: 50, view: viewOf({}) },
  { start: 1_450, end: 1_500, view: viewOf({}) },
  { start: 100, end: 160, view: viewOf({ sortBy: 'grp desc' }) },
  { start: 0, end: 80, view: viewOf({ sortBy: 'label, at desc', filters: 'grp = 3 AND price > 10' }) },
  { start: 20, end: 70, view: viewOf({ filters: 'label IS NULL', columns: 'id,label' }) },
  { start: 0, end: 40, view: viewOf({ sortBy: 'big desc', columns: 'big,id' }) },
];

let dir: string;
let service: RunningService;
let client: ServiceClient;
let shape: ResultShape;
let db: CacheDb;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-in-place-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: PAGE_ROWS });
  const executionId = await finishedSql(service, SQL);
  client = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
  const read = await readResultShape(client, 'local', executionId, false);
  if (!read.ok) throw new Error(read.error.message);
  shape = read.data.shape;
  db = await openCacheDb(join(dir, 'cache'));
});

afterAll(async () => {
  await db?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Downloads the result into the cache (`db` in `cacheDir`) as the cache does, without folding its pages. */
async function download(into: CacheDb = db, cacheDir = join(dir, 'cache')): Promise<CacheEntry> {
  const table = stagingTableName();
  const outcome = await downloadResult(
    {
      db: into,
      client,
      shape,
      workDir: join(cacheDir, 'downloads', table),
      pageRows: PAGE_ROWS,
      window: { min: 2, max: 4, roundTripMs: 0 },
      signal: new AbortController().signal,
      onRows: () => undefined,
      now: () => new Date().toISOString(),
    },
    table,
  );
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.data;
}

/** What the cache answers for each of VIEWS, without the mark of where it came from. */
async function cachedAnswers(entry: CacheEntry): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const { start, end, view } of VIEWS) {
    const page = await readCachedPage(db, entry, view, start, end);
    answers.push(page.ok ? { ...page, data: { ...page.data, fromCache: undefined } } : page);
  }
  return answers;
}

const pageFiles = (entry: CacheEntry) => {
  const folder = pagesFolder(db, entry.tableName);
  return existsSync(folder) ? readdirSync(folder).sort() : [];
};

const rowsOf = async (table: string) =>
  db.withConnection(async (c) => (await c.runAndReadAll(`SELECT id FROM "${table}" ORDER BY rowid`)).getRows().map(([id]) => Number(id)));

describe("a download's Parquet pages read in place", () => {
  let served: unknown[];
  beforeAll(async () => {
    served = [];
    for (const { start, end, view } of VIEWS) {
      const page = await readRowRange(client, { executionId: shape.executionId, startRow: start, endRow: end, allowPartial: false, view });
      served.push(page.ok ? { ...page, data: { ...page.data, fromCache: undefined } } : page);
    }
  });

  it('answer as the service does, and again once folded into a table, which then takes their place', async () => {
    const entry = await download();
    expect(isPagesView(entry.tableName)).toBe(true);
    expect(pageFiles(entry)).toEqual(['0.page', '1200.page', '400.page', '800.page']);
    // the download's table waits empty for the fold
    expect(await rowsOf(tableOf(entry.tableName))).toEqual([]);
    expect(await cachedAnswers(entry)).toEqual(served);
    const sample = await readCachedSample(db, entry, 30, viewOf({ filters: 'grp = 2', columns: 'id,grp' }));
    expect(sample).toMatchObject({ ok: true, data: { totalRowCount: 214 } });
    expect(sample.ok && sample.data.rows.every(([, grp]) => grp === 2)).toBe(true);
    const profile = await profileFromCache(db, entry, 'price', undefined);

    const folds = new PageFolds(db, () => undefined);
    folds.fold(entry);
    await folds.settled();
    const [folded] = await listEntries(db);
    expect(folded!.tableName).toBe(tableOf(entry.tableName));
    expect(await rowsOf(folded!.tableName)).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
    expect(await cachedAnswers(folded!)).toEqual(served);
    expect(await profileFromCache(db, folded!, 'price', undefined)).toEqual(profile);
    // its pages are gone; a reader given the entry before the fold reads the table through the view
    expect(pageFiles(entry)).toEqual([]);
    expect(await cachedAnswers(entry)).toEqual(served);
    // removed, the entry takes the table and the view with it
    await removeEntry(db, folded!);
    const left = await db.withConnection(async (c) =>
      (
        await c.runAndReadAll(
          `SELECT table_name FROM duckdb_tables() WHERE table_name NOT IN ('cache_entries', 'kept_downloads')
           UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal`,
        )
      ).getRows(),
    );
    expect(left).toEqual([]);
  });

  it('go with their entry when it is removed, and a fold that finds the entry gone drops its table', async () => {
    const entry = await download();
    expect(pageFiles(entry)).toHaveLength(4);
    await removeEntry(db, entry);
    expect(pageFiles(entry)).toEqual([]);
    const removed: CacheEntry[] = [];
    const folds = new PageFolds(db, (gone) => removed.push(gone));
    folds.fold(entry);
    await folds.settled();
    expect(await listEntries(db)).toEqual([]);
    const tables = await db.withConnection(async (c) =>
      (await c.runAndReadAll('SELECT table_name FROM duckdb_tables() WHERE table_name = ?', [tableOf(entry.tableName)])).getRows(),
    );
    expect(tables).toEqual([]);
    expect(removed).toEqual([entry]);
  });
});

describe('local SQL over a result read in place', () => {
  it("offers only the result's columns, not the place of each row", async () => {
    const cacheDir = join(dir, 'local-sql-cache');
    const cache = await openResultCache({ dir: cacheDir, onStatus: () => undefined });
    try {
      // downloaded as the cache downloads, without the fold a download through the cache starts
      const entry = await download(cache.db, cacheDir);
      expect(isPagesView(entry.tableName)).toBe(true);
      // no run of the app's history names it: it is known by its execution
      const localSql = new LocalSql({ cache, history: { all: () => [] }, dir: join(cacheDir, 'local-sql') });
      const [named] = await localSql.tables('local');
      expect(named!.columns.map((c) => c.name)).toEqual(['id', 'grp', 'label', 'price', 'big', 'at']);
      const answer = await localSql.run({ accountId: 'local', sql: `SELECT * FROM ${named!.name} WHERE grp = 2` });
      expect(answer).toMatchObject({ ok: true, data: { rowCount: 214 } });
      expect(answer.ok && answer.data.columns.map((c) => c.name)).toEqual(['id', 'grp', 'label', 'price', 'big', 'at']);
      await localSql.close();
    } finally {
      await cache.close();
    }
  });
});
