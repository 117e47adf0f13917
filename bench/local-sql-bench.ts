// `npm run bench`'s local SQL figures: a join of two cached million-row results on a key, through
// local SQL (the sandbox's check, the run in the cache, its answer cached as a result) next to the
// same join run directly in the cache's DuckDB on the cache's tables, its answer kept as a table
// too. Run alone (`node bench/local-sql-bench.ts`), it makes its two results itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { quoteIdentifier as q } from '../main/common/sql-quote.ts';
import { stagingTableName } from '../main/core/cache/download.ts';
import { swapIn, type CacheEntry } from '../main/core/cache/manifest.ts';
import { openResultCache, type ResultCache } from '../main/core/cache/result-cache.ts';
import { LocalSql } from '../main/core/local-sql/local-sql.ts';
import { nameTables } from '../main/core/local-sql/local-tables.ts';
import { median } from './timing.ts';

const RUNS = 9;
const GOAL_RATIO = 1.2;
const ROWS = 1_000_000;

/** A cached result made in the cache's DuckDB from `select` (of `id` and other columns), as a download would leave it. */
async function cachedResult(cache: ResultCache, accountId: string, executionId: string, select: string): Promise<CacheEntry> {
  const tableName = stagingTableName();
  const columns = await cache.db.withConnection(async (connection) => {
    await connection.run(`CREATE TABLE ${q(tableName)} AS ${select}`);
    const reader = await connection.runAndReadAll(
      `SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index`,
      [tableName],
    );
    return reader.getRows().map(([name, type]) => ({ name: String(name), type: String(type) }));
  });
  const now = new Date().toISOString();
  const entry: CacheEntry = {
    accountId,
    executionId,
    tableName,
    columns,
    wireTypes: columns.map((c) => c.type.toLowerCase()),
    rowCount: ROWS,
    bytes: 0,
    isPartial: false,
    expiresAt: null,
    fetchedAt: now,
    lastUsed: now,
  };
  await swapIn(cache.db, entry);
  return entry;
}

/** The local SQL lines of the benchmark's output; `first` is a cached million-row result with an `id` column. */
export async function benchLocalSql(cache: ResultCache, first: CacheEntry, dir: string): Promise<string[]> {
  const second = await cachedResult(
    cache,
    first.accountId,
    'bench-scores',
    `SELECT i AS id, hash(i) % 1000 AS score, 'tag_' || (i % 100) AS tag FROM range(${first.rowCount}) AS t(i) ORDER BY hash(i)`,
  );
  const local = new LocalSql({ cache, history: { all: () => [] }, dir: join(dir, 'local-sql') });
  const [a, b] = [first, second].map((entry) => nameTables([entry], [])[0]!.name);
  const joinSql = (x: string, y: string) => `SELECT x.*, y.score, y.tag FROM ${x} AS x JOIN ${y} AS y ON x.id = y.id`;
  let replaces: string | null = null;
  const viaLocal = async () => {
    const answer = await local.run({ accountId: first.accountId, sql: joinSql(a!, b!), replaces });
    if (!answer.ok || answer.data.rowCount !== first.rowCount) throw new Error(`local SQL answered ${JSON.stringify(answer)}`);
    replaces = answer.data.executionId;
    // what a run leaves to do after its answer is not the next one's to wait for
    await local.settled();
  };
  const direct = () =>
    cache.db.withConnection(async (connection) => {
      await connection.run(`CREATE TABLE bench_join AS ${joinSql(q(first.tableName), q(second.tableName))}`);
      await connection.run('DROP TABLE bench_join');
    });
  const firstRun = performance.now();
  await viaLocal();
  const firstMs = performance.now() - firstRun;
  await direct();
  // in turns, so that each meets the same state of the machine
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const [work, into] of [
      [viaLocal, ours],
      [direct, theirs],
    ] as const) {
      const start = performance.now();
      await work();
      into.push(performance.now() - start);
    }
  }
  await local.close();
  const [l, d] = [median(ours), median(theirs)];
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    `Local SQL join of two cached million-row results on a key (median of ${RUNS})`.padEnd(62) +
      ms(l).padStart(17) +
      `   the join directly in DuckDB ${ms(d)}: ${(l / d).toFixed(2)}x (goal ${GOAL_RATIO}x)`,
    '  its first run'.padEnd(62) + ms(firstMs).padStart(17),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = mkdtempSync(join(tmpdir(), 'querydesk-local-sql-bench-'));
  const cache = await openResultCache({ dir, onStatus: () => undefined });
  try {
    const first = await cachedResult(
      cache,
      'bench',
      'bench-transfers',
      `SELECT i AS id, TIMESTAMP '2023-01-01' + to_seconds(i * 13) AS block_time, ['ethereum', 'base', 'arbitrum'][1 + i % 3] AS chain,
        (hash(i) % 1000000)::DOUBLE / 100 AS amount_usd FROM range(${ROWS}) AS t(i) ORDER BY i`,
    );
    console.log((await benchLocalSql(cache, first, dir)).join('\n'));
  } finally {
    await cache.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
