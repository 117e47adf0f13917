// `npm run bench:dune` (and the end of `npm run bench`): a million-row result of Dune's types (a
// varbinary, a uint256 and a timestamp(3) with time zone among 8 columns) through the app's result
// path, beside the demo's million rows through the same path in the same run. Both come through
// the Dune-shapes stand-in, as the hosted service sends them: CSV pages only, Dune's type names,
// integers as bare numbers. Goal: each Dune figure within 1.5x of the demo's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CacheStatus } from '../main/contract/index.ts';
import { readCachedPage } from '../main/core/cache/cached-reads.ts';
import { openResultCache, type ResultCache } from '../main/core/cache/result-cache.ts';
import { profileFromCache } from '../main/core/profile/column-profile.ts';
import { createServiceClient, type ServiceClient } from '../main/core/service-client/index.ts';
import { startDuneShapes } from '../test/dune-shapes/dune-shapes-proxy.ts';
import { finishedStatus } from './finished-execution.ts';
import { recordPrinted } from './results-file.ts';
import { startServiceChild } from './service-child.ts';
import { median, timed } from './timing.ts';

// Everything printed from here on is this run's section of bench/RESULTS.md, written once it ends well.
const recording = recordPrinted('bench:dune');

const DEMO_QUERY_ID = 4;
const ROWS = 1_000_000;
const RUNS = 5;
const GOAL = 1.5;

// The demo's million rows with Dune's types in three of its columns: its wallet as a varbinary
// address, its fee as a raw uint256 token amount (18 decimals, past 2^64 for most rows), its
// block_time as timestamp(3) with time zone. Their text is longer than the demo's: the download's
// bytes are printed beside its time.
const DUNE_SQL = `SELECT
  i AS "id::bigint",
  strftime(TIMESTAMP '2023-01-01 00:00:00' + to_seconds(i * 13), '%Y-%m-%d %H:%M:%S.%g UTC') AS "block_time::timestamp(3) with time zone",
  ['ethereum', 'arbitrum', 'optimism', 'base', 'polygon'][1 + i % 5] AS "chain::varchar",
  '0x' || lpad(printf('%x', i % 50000), 40, '0') AS "wallet::varbinary",
  (hash(i) % 1000000)::DOUBLE / 100 AS "amount_usd::double",
  CAST(i % 1000 AS VARCHAR) || '0000000000000000' || CAST(i % 10 AS VARCHAR) AS "fee::uint256",
  i % 2 = 0 AS "is_inbound::boolean",
  CASE WHEN i % 13 = 0 THEN NULL ELSE i % 97 END AS "bucket::integer"
FROM range(${ROWS}) AS t(i)
ORDER BY i`;

interface Case {
  label: string;
  executionId: string;
  view: { filters: string; sortBy: string };
  profiled: string;
}

const dir = mkdtempSync(join(tmpdir(), 'querydesk-dune-bench-'));
const service = await startServiceChild(dir);
const shapes = await startDuneShapes(service.baseUrl);
async function download(client: ServiceClient, executionId: string, cacheDir: string): Promise<{ ms: number; cache: ResultCache }> {
  let ended: (status: CacheStatus) => void = () => undefined;
  const cache = await openResultCache({ dir: cacheDir, knownRowCount: () => ROWS, onStatus: (s) => s.state !== 'downloading' && ended(s) });
  const run = await timed(async () => {
    const done = new Promise<CacheStatus>((resolve) => (ended = resolve));
    const started = await cache.start('bench', client, executionId, false);
    if (!started.ok) throw new Error(started.error.message);
    return done;
  });
  if (run.value.state !== 'cached') throw new Error(`download ended ${run.value.state}: ${run.value.error}`);
  return { ms: run.ms, cache };
}

/** The median download, grid page and profile of one result, each into or from a new cache. */
async function measure(client: ServiceClient, subject: Case) {
  const downloads: number[] = [];
  let kept: ResultCache | null = null;
  const bytesBefore = shapes.bytesSent();
  for (let run = 0; run < 3; run++) {
    const { ms, cache } = await download(client, subject.executionId, join(dir, `${subject.label}-${run}`));
    downloads.push(ms);
    if (kept) await cache.close();
    else kept = cache;
  }
  const bytes = (shapes.bytesSent() - bytesBefore) / 3;
  const entry = (await kept!.use('bench', subject.executionId))!;
  const pages: number[] = [];
  const profiles: number[] = [];
  for (let run = -1; run < RUNS; run++) {
    const page = await timed(() => readCachedPage(kept!.db, entry, subject.view, 5_000, 5_100));
    if (!page.value.ok || page.value.data.rows.length !== 100) throw new Error(`${subject.label}: the page was not read`);
    const profile = await timed(() => profileFromCache(kept!.db, entry, subject.profiled, undefined));
    if (!profile.value.ok || profile.value.data.rowCount !== ROWS) throw new Error(`${subject.label}: the profile was not made`);
    if (run < 0) continue;
    pages.push(page.ms);
    profiles.push(profile.ms);
  }
  await kept!.close();
  return { download: median(downloads), bytes, page: median(pages), profile: median(profiles) };
}

try {
  const client = createServiceClient({ baseUrl: shapes.baseUrl, apiKey: service.key, serviceName: 'DUNE' });
  const demo = await client.executions.execute({ queryId: DEMO_QUERY_ID });
  const dune = await client.executions.executeSql({ sql: DUNE_SQL });
  if (!demo.ok || !dune.ok) throw new Error('the results could not be made');
  await finishedStatus(client, demo.data.executionId);
  await finishedStatus(client, dune.data.executionId);
  console.log(
    `Two results of ${ROWS.toLocaleString('en')} rows x 8 columns, through the Dune-shapes stand-in (CSV pages only); 2 cores shared.\n`,
  );
  const reference = await measure(client, {
    label: 'demo',
    executionId: demo.data.executionId,
    view: { filters: "chain = 'base' AND fee > 50", sortBy: 'fee desc' },
    profiled: 'fee',
  });
  const typed = await measure(client, {
    label: 'dune',
    executionId: dune.data.executionId,
    view: { filters: "chain = 'base' AND fee > 50000000000000000000", sortBy: 'fee desc' },
    profiled: 'fee',
  });
  const row = (label: string, ours: number, theirs: number) => {
    const ratio = ours / theirs;
    console.log(
      `${label.padEnd(58)} ${`${ours.toFixed(1)} ms`.padStart(12)}   demo ${theirs.toFixed(1)} ms: ${ratio.toFixed(2)}x (goal ${GOAL}x)${ratio > GOAL ? '  OVER' : ''}`,
    );
  };
  row('Download into the cache, CSV pages (median of 3)', typed.download, reference.download);
  const mb = (bytes: number) => bytes / 1024 ** 2;
  const perMb = (run: { download: number; bytes: number }) => run.download / mb(run.bytes);
  console.log(
    `  its CSV: ${mb(typed.bytes).toFixed(1)} MB against the demo's ${mb(reference.bytes).toFixed(1)} MB (${(typed.bytes / reference.bytes).toFixed(2)}x)`,
  );
  row('  the download, ms per MB of CSV', perMb(typed), perMb(reference));
  row(`Filtered, sorted 100-row page on uint256 (median of ${RUNS})`, typed.page, reference.page);
  row(`Profile of the uint256 column (median of ${RUNS})`, typed.profile, reference.profile);
  recording.save();
} finally {
  await shapes.close();
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
