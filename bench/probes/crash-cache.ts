import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CacheStatus } from '../../main/contract/index.ts';
import { openResultCache, type ResultCache } from '../../main/core/cache/result-cache.ts';
import { createServiceClient, type ServiceClient } from '../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../main/service/index.ts';
import { finishedStatus } from '../finished-execution.ts';
import { seeded } from './random.ts';

// The app's result cache killed with SIGKILL in the middle of a download, from the embedded
// service on loopback, then opened again on the same folder: the download goes on from the rows
// that were on disk, ends with the result row for row, and the cache file, after the entry is
// cleared, gives its space back when the cache next opens.

export interface CacheCrashRound {
  /** Rows the killed download had received when it was killed. */
  arrived: number;
  /** The row the next download went on from (0: it started again). */
  resumedFrom: number;
  exact: boolean;
  /** The cache file (with its log) as the kill left it, and once the cache had opened on it. */
  bytesAtKill: number;
  bytesAfterOpen: number;
}

export interface CacheCrashReport {
  rounds: CacheCrashRound[];
  /** The cache file once the last round's entry was cleared and the cache opened again, and the bytes DuckDB uses of it. */
  finalBytes: number;
  finalUsedBytes: number;
  seconds: number;
}

const CHILD = fileURLToPath(new URL('./crash-cache-child.ts', import.meta.url));

const fileBytes = (file: string) => [file, `${file}.wal`].reduce((sum, path) => sum + (existsSync(path) ? statSync(path).size : 0), 0);

/** The file with its log, and the pages a download keeps beside it (see page-keeper.ts). */
function writtenBytes(file: string): number {
  const pages = join(dirname(file), 'pages');
  const kept = existsSync(pages) ? readdirSync(pages, { recursive: true, encoding: 'utf8' }).map((name) => join(pages, name)) : [];
  return fileBytes(file) + kept.reduce((sum, path) => sum + (existsSync(path) ? statSync(path).size : 0), 0);
}

async function finishedSql(client: ServiceClient, sql: string): Promise<string> {
  const started = await client.executions.executeSql({ sql });
  if (!started.ok) throw new Error(started.error.message);
  await finishedStatus(client, started.data.executionId, 20);
  return started.data.executionId;
}

/** Downloads the result into `cache`, waiting for the end. */
async function cacheWhole(cache: ResultCache, statuses: CacheStatus[], client: ServiceClient, executionId: string): Promise<CacheStatus> {
  const seen = statuses.length;
  const started = await cache.start('local', client, executionId, false);
  if (!started.ok) throw new Error(started.error.message);
  for (;;) {
    const ended = statuses.slice(seen).find((s) => s.state !== 'downloading');
    if (ended) return ended;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The entry's rows in order, as one digest. */
async function digest(cache: ResultCache, executionId: string): Promise<string | null> {
  // a row of a view of pages read in place would also hold its place (see pages-view.ts)
  await cache.folded();
  const entry = await cache.use('local', executionId);
  if (entry === null) return null;
  return cache.db.withConnection(async (connection) =>
    String(
      (
        await connection.runAndReadAll(`SELECT md5(string_agg(CAST(t AS VARCHAR), chr(10) ORDER BY rowid)) FROM "${entry.tableName}" AS t`)
      ).getRows()[0]![0],
    ),
  );
}

interface DownloadChild {
  /** Rows received so far, as the child said. */
  arrived: number;
  /** The child said its download has committed rows. */
  committed: boolean;
  /** The child said its download ended. */
  finished: boolean;
  running: () => boolean;
  /** Kills the child (if it still runs) and waits for it to exit. */
  kill: () => Promise<void>;
}

/** A child that downloads the result into `dir`, saying as it goes how far it has come. */
function downloadInChild(dir: string, service: RunningService, executionId: string): DownloadChild {
  const child = spawn(process.execPath, [CHILD, dir, service.baseUrl, service.demoApiKey!, executionId], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const download: DownloadChild = {
    arrived: 0,
    committed: false,
    finished: false,
    running: () => child.exitCode === null,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    for (const [, state, rows] of chunk.toString().matchAll(/^(\w+) (\d+)$/gm)) {
      if (state === 'downloading') download.arrived = Math.max(download.arrived, Number(rows));
      else if (state === 'committed') download.committed = true;
      else download.finished = true;
    }
  });
  return download;
}

/**
 * The bytes a download of the result into a new `dir` writes (the file, its log and the pages
 * kept beside it) from its first commit to its end: the stretch of its writes a kill must fall in
 * to leave rows to go on from. Measured rather than taken from the result's size, since how much
 * of a download is written after its first commit depends on how the cache keeps its pages.
 */
async function bytesAfterFirstCommit(dir: string, service: RunningService, executionId: string): Promise<number> {
  const file = join(dir, 'results.duckdb');
  const download = downloadInChild(dir, service, executionId);
  let atCommit: number | null = null;
  let most = 0;
  while (!download.finished && download.running()) {
    most = Math.max(most, writtenBytes(file));
    if (atCommit === null && download.committed) atCommit = writtenBytes(file);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await download.kill();
  if (atCommit === null || !download.finished) throw new Error('the measuring download did not commit rows and end');
  return most - atCommit;
}

/**
 * Runs a child that downloads the result into `dir`, and kills it once it has committed rows (it
 * says so) and the file (with its log) and the pages kept beside it have grown by `further` bytes since: a point in the writes,
 * since the rows arrive well ahead of their loads on a busy machine. (Watching the log's size for
 * the first commit was not enough: on a new file the schema's own commits could pass for it, and a
 * kill then rightly started again from row 0.) Answers the rows arrived.
 */
async function killMidway(dir: string, service: RunningService, executionId: string, further: number): Promise<number> {
  const file = join(dir, 'results.duckdb');
  const download = downloadInChild(dir, service, executionId);
  let killAt = Infinity;
  while (writtenBytes(file) < killAt && !download.finished && download.running()) {
    if (killAt === Infinity && download.committed) killAt = writtenBytes(file) + further;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await download.kill();
  if (download.finished) throw new Error('the download ended before it was killed: give it more rows');
  return download.arrived;
}

export async function crashCache(options: { rounds: number; seed: number; rows: number }): Promise<CacheCrashReport> {
  const started = performance.now();
  const random = seeded(options.seed);
  const root = mkdtempSync(join(tmpdir(), 'querydesk-crash-cache-'));
  const service = await startService({ dataDir: join(root, 'service'), port: 0 });
  const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: service.demoApiKey ?? '', serviceName: 'DUNE' });
  const dir = join(root, 'cache');
  const file = join(dir, 'results.duckdb');
  const statuses: CacheStatus[] = [];
  const open = () => openResultCache({ dir, onStatus: (status) => statuses.push(status) });
  try {
    const sql = `SELECT i AS id, md5(i::VARCHAR) AS hash, i * 0.5 AS half, 'row ' || i AS label FROM range(${options.rows}) AS t(i)`;
    const executionId = await finishedSql(client, sql);
    const reference = await openResultCache({ dir: join(root, 'reference'), onStatus: (status) => statuses.push(status) });
    await cacheWhole(reference, statuses, client, executionId);
    const expected = await digest(reference, executionId);
    await reference.close();
    // kills fall anywhere in the first four fifths of that stretch, leaving the rest for the polling's lag
    const stretch = await bytesAfterFirstCommit(join(root, 'measure'), service, executionId);

    const rounds: CacheCrashRound[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const arrived = await killMidway(dir, service, executionId, Math.round(stretch * 0.8 * random.next()));
      const bytesAtKill = fileBytes(file);
      const cache = await open();
      const bytesAfterOpen = fileBytes(file);
      const kept = await cache.db.exclusive(async (connection) =>
        (await connection.runAndReadAll('SELECT row_count FROM kept_downloads WHERE execution_id = ?', [executionId])).getRows(),
      );
      const ended = await cacheWhole(cache, statuses, client, executionId);
      const exact = ended.state === 'cached' && (await digest(cache, executionId)) === expected;
      rounds.push({ arrived, resumedFrom: Number(kept[0]?.[0] ?? 0), exact, bytesAtKill, bytesAfterOpen });
      // the entry goes, leaving its blocks free for the next open to give back
      await cache.clear();
      await cache.close();
    }
    const cache = await open();
    const finalBytes = fileBytes(file);
    const [used, blockSize] = (
      await cache.db.exclusive((connection) =>
        connection.runAndReadAll('SELECT used_blocks, block_size FROM pragma_database_size() WHERE database_name = current_database()'),
      )
    ).getRows()[0]!;
    await cache.close();
    return { rounds, finalBytes, finalUsedBytes: Number(used) * Number(blockSize), seconds: (performance.now() - started) / 1000 };
  } finally {
    await service.close();
    rmSync(root, { recursive: true, force: true });
  }
}
