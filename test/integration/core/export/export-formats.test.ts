import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionUpdate, ExportProgress } from '../../../../main/contract/index.ts';
import { fileTarget, type ExportDestinations, type ExportTarget } from '../../../../main/core/export/destination.ts';
import { expectWellSaid } from '../../words/read-words.ts';
import { startCacheHarness, until, type CacheHarness } from '../cache/cache-harness.ts';

// Parquet and JSON lines exports: written by DuckDB from the cache with the cached types, exact
// values kept; a result not cached yet is downloaded into the cache first; a cancel leaves no file.

const SQL = `SELECT
  i AS id,
  i::HUGEINT * 100000000000000000000000000000 + 7 AS big,
  CASE WHEN i = 2000 THEN 170141183460469231731687303715884105727::HUGEINT ELSE i::HUGEINT * 3 END AS huge,
  (i * 0.125)::DECIMAL(20, 4) AS price,
  TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 61) + to_microseconds(i * 1000) AS traded_at,
  ['alpha', 'beta', 'gamma'][1 + i % 3] AS tag
FROM range(1, 2001) AS t(i)`;
const VIEW = { scope: 'view' as const, filters: "tag = 'beta' AND id > 100", sortBy: 'price desc', columns: 'id,big,huge,price,traded_at' };
const EXPECTED = `SELECT id, big, huge, price, traded_at FROM (${SQL}) WHERE tag = 'beta' AND id > 100 ORDER BY price DESC`;

let harness: CacheHarness;
let reader: DuckDBConnection;
let outDir: string;
let ran: string;
let stalled: (ExportTarget & { discarded: boolean }) | null = null;
const destinations: ExportDestinations = { choose: async (exportId, name) => stalled ?? fileTarget(join(outDir, name), exportId) };

beforeAll(async () => {
  harness = await startCacheHarness({}, { exportDestinations: destinations });
  outDir = join(harness.dir, 'out');
  mkdirSync(outDir);
  reader = await (await DuckDBInstance.create(':memory:')).connect();
  await reader.run("SET TimeZone = 'UTC'");
  ran = await runSql(SQL);
});
afterAll(async () => {
  reader?.closeSync();
  await harness?.close();
});

async function runSql(sql: string): Promise<string> {
  const run = await harness.call('executions:runSql', { accountId: 'local', queryId: null, sql });
  if (!run.ok) throw new Error(run.error.message);
  const { executionId } = run.data;
  await until(() =>
    harness.events.some(
      (e) =>
        e.event === 'execution:update' &&
        (e.payload as ExecutionUpdate).executionId === executionId &&
        (e.payload as ExecutionUpdate).isFinished,
    ),
  );
  return executionId;
}

async function exportFile(executionId: string, format: 'parquet' | 'jsonl', fileName: string) {
  const started = await harness.call('results:export', { accountId: 'local', executionId, format, fileName, ...VIEW });
  if (!started.ok) throw new Error(started.error.message);
  return { exportId: started.data.exportId, ended: await harness.exportEnded(started.data.exportId), path: join(outDir, fileName) };
}

/** Every cell as DuckDB spells it, so exact values are compared exactly. */
async function cells(from: string): Promise<string[][]> {
  const rows = (await reader.runAndReadAll(`SELECT CAST(COLUMNS(*) AS VARCHAR) FROM (${from})`)).getRows();
  return rows.map((row) => row.map(String));
}

async function types(from: string): Promise<string[]> {
  return (await reader.runAndReadAll(`DESCRIBE ${from}`)).getRows().map((row) => `${row[0]} ${row[1]}`);
}

function statesOf(exportId: string): string[] {
  return harness.events
    .filter((e) => e.event === 'results:exportProgress' && (e.payload as ExportProgress).exportId === exportId)
    .map((e) => (e.payload as ExportProgress).state);
}

describe('Parquet and JSON lines exports', () => {
  it('download a result into the cache first, then write its view as Parquet with its types and exact values', async () => {
    expect(await harness.call('results:cacheStatus', { accountId: 'local', executionId: ran })).toMatchObject({
      ok: true,
      data: { state: 'absent' },
    });
    const { exportId, ended, path } = await exportFile(ran, 'parquet', 'view.parquet');
    const expected = await cells(EXPECTED);
    expect(ended).toMatchObject({
      state: 'done',
      fromCache: true,
      rowsWritten: expected.length,
      totalRowCount: expected.length,
      error: null,
    });
    expect(statesOf(exportId)[0]).toBe('caching');
    expect(await harness.call('results:cacheStatus', { accountId: 'local', executionId: ran })).toMatchObject({
      ok: true,
      data: { state: 'cached' },
    });

    expect(await cells(`SELECT * FROM '${path}'`)).toEqual(expected);
    // a 128-bit integer of up to 38 digits stays a number; one with 39 keeps its digits as text
    expect(await types(`'${path}'`)).toEqual([
      'id BIGINT',
      'big DECIMAL(38,0)',
      'huge VARCHAR',
      'price DECIMAL(20,4)',
      'traded_at TIMESTAMP',
    ]);
    expect(expected[0]).toEqual(['1999', '199900000000000000000000000000007', '5997', '249.8750', '2024-01-02 09:52:20.999']);
    expect(readdirSync(outDir)).toEqual(['view.parquet']);
  });

  it('write the same view as JSON lines, one object a line, numbers exact or as strings of their digits', async () => {
    const { ended, path } = await exportFile(ran, 'jsonl', 'view.jsonl');
    const expected = await cells(EXPECTED);
    expect(ended).toMatchObject({ state: 'done', fromCache: true, rowsWritten: expected.length });
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(expected.length);
    expect(Object.keys(JSON.parse(lines[0]!) as object)).toEqual(['id', 'big', 'huge', 'price', 'traded_at']);
    expect(lines[0]).toContain('"big":"199900000000000000000000000000007","huge":5997,');
    expect(lines[0]).toContain('"price":249.8750,');
    expect(lines[0]).toContain('"traded_at":"2024-01-02 09:52:20.999 UTC"');
    const typed = `read_json('${path}', columns = {id: 'BIGINT', big: 'HUGEINT', huge: 'HUGEINT', price: 'DECIMAL(20,4)', traded_at: 'TIMESTAMP'})`;
    expect(await cells(`SELECT * FROM ${typed}`)).toEqual(expected);
  });

  it('stop on cancel, while downloading into the cache and while passing the file on, and leave no file behind', async () => {
    const million = await harness.run('One million rows');
    const started = await harness.call('results:export', {
      accountId: 'local',
      executionId: million,
      scope: 'all',
      format: 'parquet',
      fileName: 'million.parquet',
    });
    if (!started.ok) throw new Error(started.error.message);
    await until(() => statesOf(started.data.exportId).includes('caching'));
    expect(await harness.call('results:exportCancel', { exportId: started.data.exportId })).toEqual({
      ok: true,
      data: { cancelled: true },
    });
    expect(await harness.exportEnded(started.data.exportId)).toMatchObject({ state: 'cancelled', error: null });
    // the download the export started is stopped with it, and the cache is as it was
    expect(await harness.call('results:cacheStatus', { accountId: 'local', executionId: million })).toMatchObject({
      ok: true,
      data: { state: 'cancelled' },
    });

    // a download nobody reads past its first bytes: the export is cancelled while DuckDB writes its
    // scratch file or while it is passed on, and either way neither is left
    expect(await harness.cacheWhole(million)).toMatchObject({ state: 'cached' });
    stalled = {
      discarded: false,
      delivery: { kind: 'download', url: '/export/x' },
      open: async () => new Writable({ highWaterMark: 16, write: () => undefined }),
      finish: async () => undefined,
      discard: async () => void (stalled!.discarded = true),
    };
    const passing = await harness.call('results:export', { accountId: 'local', executionId: million, scope: 'all', format: 'parquet' });
    if (!passing.ok) throw new Error(passing.error.message);
    await until(() => statesOf(passing.data.exportId).includes('running'));
    await harness.call('results:exportCancel', { exportId: passing.data.exportId });
    expect(await harness.exportEnded(passing.data.exportId)).toMatchObject({ state: 'cancelled', error: null });
    expect(stalled.discarded).toBe(true);
    stalled = null;
    expect(readdirSync(join(harness.dir, 'core', 'exports'))).toEqual([]);
    expect(readdirSync(outDir).sort()).toEqual(['view.jsonl', 'view.parquet']);
  });

  it('fail an export to a folder that is not there, saying which, and leave nothing behind', async () => {
    const missing = join(outDir, 'gone');
    for (const format of ['csv', 'jsonl'] as const) {
      stalled = { ...fileTarget(join(missing, `view.${format}`), format), discarded: false };
      const started = await harness.call('results:export', { accountId: 'local', executionId: ran, format, ...VIEW });
      if (!started.ok) throw new Error(started.error.message);
      const ended = await harness.exportEnded(started.data.exportId);
      expect(ended, format).toMatchObject({ state: 'failed', error: expect.stringContaining(missing) });
      expectWellSaid({ code: 'internal', message: ended.error! });
    }
    stalled = null;
    expect(readdirSync(outDir).sort()).toEqual(['view.jsonl', 'view.parquet']);
  });

  it('refuse a result larger than the cache budget, saying why and what to do instead', async () => {
    const other = await runSql(`${SQL} ORDER BY id DESC`);
    await harness.call('results:cacheSettings', { budgetBytes: 1000 });
    const refused = await harness.call('results:export', { accountId: 'local', executionId: other, scope: 'all', format: 'jsonl' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringContaining("larger than the cache's budget") },
    });
    expect(refused.ok || refused.error.message).toContain('export CSV');
    expect(refused.ok || refused.error.message).toContain('budget (1,000 bytes)');
    if (!refused.ok) expectWellSaid(refused.error);
  });
});
