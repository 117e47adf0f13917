// `npm run bench`'s pivot figures, over the cached million-row demo result: a pivot by two columns
// with three measures next to the same GROUP BY run directly in DuckDB on the cache's table, and
// the first rows of a drill-down into a group of 100,000 rows.
import { quoteIdentifier } from '../main/common/sql-quote.ts';
import type { PivotSettings } from '../main/contract/index.ts';
import type { CacheDb } from '../main/core/cache/cache-db.ts';
import { readCachedPage } from '../main/core/cache/cached-reads.ts';
import type { CacheEntry } from '../main/core/cache/manifest.ts';
import { pivotFromCache } from '../main/core/pivot/pivot-table.ts';
import { equalsCondition } from '../main/filter-language/index.ts';
import { median } from './timing.ts';

const RUNS = 21;
const PIVOT_GOAL_RATIO = 1.3;
const PIVOT_GOAL_MS = 300;
const DRILL_GOAL_MS = 200;

const SETTINGS: PivotSettings = {
  rows: [{ column: 'chain' }, { column: 'bucket' }],
  measures: [{ fn: 'count' }, { fn: 'sum', column: 'amount_usd' }, { fn: 'avg', column: 'fee' }],
  sort: { measure: 1, direction: 'desc' },
};
const GROUP_BY = (table: string, grouping: string) =>
  `SELECT chain, bucket, count(*), sum(amount_usd), avg(fee) FROM ${table} GROUP BY ${grouping} ORDER BY 4 DESC`;

/** Each of `works` run in turn, `RUNS` times after one run to warm up: the median time of each. */
async function medians(works: (() => Promise<unknown>)[]): Promise<number[]> {
  const times: number[][] = works.map(() => []);
  for (let run = -1; run < RUNS; run++) {
    for (const [i, work] of works.entries()) {
      const start = performance.now();
      await work();
      if (run >= 0) times[i]!.push(performance.now() - start);
    }
  }
  return times.map(median);
}

/** The pivot lines of the benchmark's output. */
export async function benchPivot(db: CacheDb, entry: CacheEntry): Promise<string[]> {
  const table = quoteIdentifier(entry.tableName);
  const direct = (grouping: string) => () => db.withConnection((connection) => connection.runAndReadAll(GROUP_BY(table, grouping)));
  // one of each in turn, so that each meets the same state of the machine, which drifts
  const [p = 0, g = 0, r = 0] = await medians([
    async () => {
      const table = await pivotFromCache(db, entry, SETTINGS, undefined);
      if (!table.ok || table.data.groups[0]?.rows !== entry.rowCount) throw new Error('the pivot was not made');
    },
    direct('chain, bucket'),
    direct('ROLLUP (chain, bucket)'),
  ]);
  const drill = `${equalsCondition('chain', 'varchar', 'base')} and ${equalsCondition('is_inbound', 'boolean', true)}`;
  const [drillMs = 0] = await medians([
    async () => {
      const page = await readCachedPage(db, entry, { filters: drill }, 0, 100);
      if (!page.ok || page.data.totalRowCount !== 100_000)
        throw new Error(`the drill-down read ${page.ok ? page.data.totalRowCount : page.error.message}`);
    },
  ]);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    `Pivot by chain and bucket, 3 measures, subtotals (median of ${RUNS}, in turn)`.padEnd(62) +
      ms(p).padStart(17) +
      `   GROUP BY directly ${ms(g)}: ${(p / g).toFixed(2)}x (goal ${PIVOT_GOAL_RATIO}x, and ${PIVOT_GOAL_MS} ms)`,
    '  the same GROUP BY ROLLUP directly'.padEnd(62) + ms(r).padStart(17) + `   pivot is ${(p / r).toFixed(2)}x it`,
    'Drill-down into a group of 100,000 rows: first 100 rows'.padEnd(62) + ms(drillMs).padStart(17) + `   (goal ${DRILL_GOAL_MS} ms)`,
  ];
}
