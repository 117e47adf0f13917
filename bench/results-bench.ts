// `npm run bench`: the app's result path on the 1,000,000-row, 8-column demo result, each figure
// next to a reference measured in the same run. The embedded service runs in a child process, as
// a remote service would, so the app and the service do not share one event loop.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuneClient } from '@duneanalytics/client-sdk';
import { quoteIdentifier } from '../main/common/sql-quote.ts';
import type { CacheStatus, ExportProgress } from '../main/contract/index.ts';
import { compileView, readCachedPage } from '../main/core/cache/cached-reads.ts';
import { openResultCache, PAGES_IN_FLIGHT } from '../main/core/cache/result-cache.ts';
import { fileTarget } from '../main/core/export/destination.ts';
import { cacheSource } from '../main/core/export/export-sources.ts';
import { createExportRuns } from '../main/core/export/exports.ts';
import { profileFromCache } from '../main/core/profile/column-profile.ts';
import { createServiceClient } from '../main/core/service-client/index.ts';
import { finishedStatus } from './finished-execution.ts';
import { benchLocalSql } from './local-sql-bench.ts';
import { benchPivot } from './pivot-bench.ts';
import { recordPrinted } from './results-file.ts';
import { startServiceChild } from './service-child.ts';
import { timed } from './timing.ts';

// Everything printed from here on is this run's section of bench/RESULTS.md, written once it ends well.
const recording = recordPrinted('bench');

const LARGE_QUERY_ID = 4;
const PAGE_ROWS = 30_000;
const VIEW = { filters: "chain = 'base' AND amount_usd > 5000", sortBy: 'amount_usd desc' };
const PAGE_AT = 5_000;
const PAGE_RUNS = 40;
/** A number, a time and a text column with 50,000 distinct values: each kind's profile queries. */
const PROFILED = ['amount_usd', 'block_time', 'wallet'];
const PROFILE_RUNS = 5;
/** Downloads of the result, each into a new cache: the median is shown, with all of them. */
const DOWNLOAD_RUNS = 3;

const dir = mkdtempSync(join(tmpdir(), 'querydesk-results-bench-'));
const service = await startServiceChild(dir);

// Figures are printed together at the end, in the order of the issue, whatever order they were measured in.
const figures = new Map<string, string[]>();
function line(section: string, label: string, value: string, reference?: string) {
  figures.set(section, [...(figures.get(section) ?? []), `${label.padEnd(62)} ${value.padStart(16)}${reference ? `   ${reference}` : ''}`]);
}
const rate = (rows: number, ms: number) => `${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

try {
  const { baseUrl, key } = service;
  const client = createServiceClient({ baseUrl, apiKey: key, serviceName: 'DUNE' });
  const executed = await client.executions.execute({ queryId: LARGE_QUERY_ID });
  if (!executed.ok) throw new Error(executed.error.message);
  const executionId = executed.data.executionId;
  const totalRows = (await finishedStatus(client, executionId)).resultMetadata?.totalRowCount ?? 0;
  console.log(`Result: ${totalRows.toLocaleString('en')} rows x 8 columns; service in a child process; 2 cores shared.\n`);

  // 1. whole-result download into the cache, into a new cache each time; the first is kept for what
  // follows, and the median of the runs is shown (its references are read at the end)
  /** The app knows the result's rows from the run it watched end, as here. */
  const downloadInto = async (cacheDir: string) => {
    let finished: (status: CacheStatus) => void = () => undefined;
    const opened = await openResultCache({
      dir: cacheDir,
      knownRowCount: () => totalRows,
      onStatus: (s) => s.state !== 'downloading' && finished(s),
    });
    const run = await timed(async () => {
      const done = new Promise<CacheStatus>((resolve) => (finished = resolve));
      const started = await opened.start('bench', client, executionId, false);
      if (!started.ok) throw new Error(started.error.message);
      return done;
    });
    if (run.value.state !== 'cached') throw new Error(`download ended ${run.value.state}: ${run.value.error}`);
    // its Parquet pages are read in place once on disk, and folded into a table after, which the reads below use
    const foldStart = performance.now();
    await opened.folded();
    return { cache: opened, ms: run.ms, foldMs: performance.now() - foldStart };
  };
  const { cache, ms: firstDownloadMs, foldMs: firstFoldMs } = await downloadInto(join(dir, 'cache'));
  const downloadMs = [firstDownloadMs];
  const foldMs = [firstFoldMs];
  for (let run = 1; run < DOWNLOAD_RUNS; run++) {
    const again = await downloadInto(join(dir, `cache-${run}`));
    downloadMs.push(again.ms);
    foldMs.push(again.foldMs);
    await again.cache.close();
  }
  const download = {
    ms: percentile(
      [...downloadMs].sort((a, b) => a - b),
      50,
    ),
  };

  // 2. a filtered, sorted 100-row page from the cached million rows; its total is counted once per
  // filter (the two warm-up runs), as the grid reads many pages of one filter
  const entry = (await cache.use('bench', executionId))!;
  const table = quoteIdentifier(entry.tableName);
  const viaCache: number[] = [];
  const direct: number[] = [];
  for (let run = -2; run < PAGE_RUNS; run++) {
    const offset = PAGE_AT + (run % 5) * 100;
    const ours = await timed(() => readCachedPage(cache.db, entry, VIEW, offset, offset + 100));
    if (!ours.value.ok || ours.value.data.rows.length !== 100) throw new Error('the cached page was not read');
    const reference = await timed(() =>
      cache.db.withConnection(async (connection) => {
        const where = `WHERE chain = 'base' AND amount_usd > 5000`;
        await connection.runAndReadAll(`SELECT * FROM ${table} ${where} ORDER BY amount_usd DESC, rowid LIMIT 100 OFFSET ${offset}`);
      }),
    );
    if (run >= 0) {
      viaCache.push(ours.ms);
      direct.push(reference.ms);
    }
  }
  viaCache.sort((a, b) => a - b);
  direct.sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  line(
    'page',
    `Filtered, sorted 100-row page from the cache (n=${PAGE_RUNS}): median`,
    ms(percentile(viaCache, 50)),
    `p95 ${ms(percentile(viaCache, 95))}`,
  );
  line(
    'page',
    '  the same SQL run directly in DuckDB: median',
    ms(percentile(direct, 50)),
    `p95 ${ms(percentile(direct, 95))}; ratio ${(percentile(viaCache, 50) / percentile(direct, 50)).toFixed(2)}x`,
  );

  // 3. a column's profile (nulls, distinct, range, quartiles, top values, histogram) next to
  // DuckDB's own SUMMARIZE of that column, which gives less (no top values, no histogram)
  for (const column of PROFILED) {
    const ours: number[] = [];
    const summarize: number[] = [];
    for (let run = -1; run < PROFILE_RUNS; run++) {
      const profile = await timed(() => profileFromCache(cache.db, entry, column, undefined));
      if (!profile.value.ok || profile.value.data.rowCount !== totalRows) throw new Error(`the profile of ${column} was not made`);
      const reference = await timed(() =>
        cache.db.withConnection((connection) => connection.runAndReadAll(`SUMMARIZE SELECT ${quoteIdentifier(column)} FROM ${table}`)),
      );
      if (run >= 0) {
        ours.push(profile.ms);
        summarize.push(reference.ms);
      }
    }
    ours.sort((a, b) => a - b);
    summarize.sort((a, b) => a - b);
    const [mine, theirs] = [percentile(ours, 50), percentile(summarize, 50)];
    line(
      'profile',
      `Profile of ${column} over the cached million rows (n=${PROFILE_RUNS}): median`,
      ms(mine),
      `SUMMARIZE ${ms(theirs)}; ratio ${(mine / theirs).toFixed(2)}x`,
    );
  }

  figures.set('pivot', await benchPivot(cache.db, entry));

  // 4. export of the million rows to CSV, streamed from the cache
  const file = join(dir, 'export.csv');
  const compiled = compileView(entry, {});
  if (compiled instanceof Error) throw compiled;
  let exported: (progress: ExportProgress) => void = () => undefined;
  const runs = createExportRuns({
    emit: (p) => ['done', 'failed', 'cancelled'].includes(p.state) && exported(p),
    scratchDir: join(dir, 'scratch'),
  });
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
  const exportRun = await timed(async () => {
    const done = new Promise<ExportProgress>((resolve) => (exported = resolve));
    runs.run('bench', await cacheSource(cache.db, entry, compiled, { format: 'csv', text: 'spreadsheet' }), fileTarget(file, 'bench'));
    return done;
  });
  clearInterval(sampler);
  if (exportRun.value.state !== 'done') throw new Error(`export ended ${exportRun.value.state}: ${exportRun.value.error}`);
  const megabytes = statSync(file).size / 1024 ** 2;
  const copy = await timed(() =>
    cache.db.withConnection((connection) =>
      connection.run(`COPY (SELECT * FROM ${table}) TO '${join(dir, 'copy.csv').replaceAll("'", "''")}' (HEADER)`),
    ),
  );
  const copyMegabytes = statSync(join(dir, 'copy.csv')).size / 1024 ** 2;
  line(
    'export',
    'Export of the million rows to CSV, from the cache',
    `${(megabytes / (exportRun.ms / 1000)).toFixed(1)} MB/s`,
    `${megabytes.toFixed(1)} MB in ${(exportRun.ms / 1000).toFixed(1)} s`,
  );
  line(
    'export',
    '  peak RSS during the export (before it)',
    `${Math.round(peakRss / 1024 ** 2)} MB`,
    `${Math.round(rssBefore / 1024 ** 2)} MB before`,
  );
  line(
    'export',
    '  DuckDB COPY TO of the same table, plain',
    `${(copyMegabytes / (copy.ms / 1000)).toFixed(1)} MB/s`,
    `export is ${(copy.ms / exportRun.ms).toFixed(2)}x its speed`,
  );
  // after the export, so that the tables it adds to the cache weigh on no figure before
  figures.set('local-sql', await benchLocalSql(cache, entry, dir));
  await runs.dispose();
  await cache.close();

  // the download's references, measured last so that the memory they take does not weigh on the export's
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    realFetch(String(input instanceof Request ? input.url : input).replace('https://api.dune.com', baseUrl), init);
  const sdk = await timed(async () => {
    const { results } = await new DuneClient(key).exec.getLastExecutionResults(LARGE_QUERY_ID, { limit: PAGE_ROWS });
    return results.result?.rows.length ?? 0;
  });
  globalThis.fetch = realFetch;
  if (sdk.value !== totalRows) throw new Error(`the official client read ${sdk.value} rows`);

  const plainCsv = await timed(async () => {
    let uri: string | null = `${baseUrl}/api/v1/execution/${executionId}/results/csv?limit=${PAGE_ROWS}&offset=0`;
    let bytes = 0;
    while (uri) {
      const response: Response = await fetch(uri, { headers: { 'X-DUNE-API-KEY': key } });
      bytes += (await response.text()).length;
      uri = response.headers.get('x-dune-next-uri');
    }
    return bytes;
  });
  line(
    'download',
    `Download into the cache (Parquet pages, ${PAGES_IN_FLIGHT.min}-${PAGES_IN_FLIGHT.max} in flight, read in place)`,
    rate(totalRows, download.ms),
    `${(download.ms / 1000).toFixed(2)} s, the median of ${DOWNLOAD_RUNS} (all: ${downloadMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}); folded into a table after: ${foldMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}`,
  );
  line(
    'download',
    '  official client, all JSON pages (getLastExecutionResults)',
    rate(totalRows, sdk.ms),
    `cache is ${(sdk.ms / download.ms).toFixed(2)}x its speed`,
  );
  // the download asked for Parquet, so this is the result's first read as CSV (its text is written)
  line(
    'download',
    '  plain HTTP reads of the same pages as CSV, one at a time',
    rate(totalRows, plainCsv.ms),
    `cache is ${(plainCsv.ms / download.ms).toFixed(2)}x its speed`,
  );

  for (const section of ['download', 'page', 'profile', 'pivot', 'local-sql', 'export'])
    console.log(`${(figures.get(section) ?? []).join('\n')}\n`);
  recording.save();
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
