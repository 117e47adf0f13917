import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { ChartData } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';
import { cellExpression, timestampText, toCacheCell } from '../cache/storage-types.ts';
import { aggregates, distinctCount, kindOf, MAX_GROUPS, topGroups, type ChartInput } from './chart-sql.ts';

// Lines and areas (and bars over time): one aggregate per x, so a million rows become a few hundred
// points before anything leaves main. Time on x falls into buckets whose unit is chosen from the
// column's range, numbers are binned, text keeps its most frequent values; with a group-by, the
// most frequent groups each get a share of the budget.

/** What a kind of chart computes; the rest of the answer describes the request. */
export type ChartPart = Pick<ChartData, 'bucket' | 'rows' | 'other' | 'sample' | 'truncated'>;

/** A few hundred buckets at most, whatever the range: more than a line across a window can show apart. */
const MAX_TIME_BUCKETS = 300;
const TIME_UNITS: [string, number][] = [
  ['minute', 60],
  ['hour', 3600],
  ['day', 86_400],
  ['week', 604_800],
  ['month', 2_629_800],
  // only for ranges beyond 25 years
  ['year', 31_557_600],
];

export async function aggregatedSeries(connection: DuckDBConnection, input: ChartInput, maxPoints: number): Promise<ChartPart> {
  const groups = input.group ? await distinctCount(connection, input, input.group) : 1;
  const perSeries = Math.max(1, Math.floor(maxPoints / Math.min(Math.max(groups, 1), MAX_GROUPS)));
  const xPlan = await planX(connection, input, perSeries);
  const ctes = [`base AS (${input.base})`];
  const filters: string[] = [];
  const top = topGroups(input);
  if (top) {
    ctes.push(top.cte);
    filters.push(top.condition);
  }
  if (kindOf(input.x) === 'text') {
    const x = quoteIdentifier(input.x.name);
    ctes.push(`top_x AS (SELECT ${x} AS v FROM base GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${perSeries})`);
    filters.push(`${x} IN (SELECT v FROM top_x)`);
  }
  const sql = `WITH ${ctes.join(', ')}
    SELECT ${xPlan.expression} AS x, ${input.group ? cellExpression(input.group) : 'NULL'} AS g, ${aggregates(input).join(', ')}
    FROM base${filters.length ? ` WHERE ${filters.join(' AND ')}` : ''}
    GROUP BY 1, 2 ORDER BY 1, 2`;
  const reader = await connection.runAndReadAll(sql, input.params);
  return {
    bucket: xPlan.bucket,
    rows: reader.getRows().map((row) => row.map(toCacheCell)),
    other: null,
    sample: null,
    truncated: groups > MAX_GROUPS || xPlan.truncated,
  };
}

interface XPlan {
  expression: string;
  bucket: string | null;
  truncated: boolean;
}

/** The smallest unit that keeps a range within the bucket budget. */
function timeUnitFor(spanSeconds: number): string {
  return (TIME_UNITS.find(([, seconds]) => spanSeconds / seconds < MAX_TIME_BUCKETS) ?? TIME_UNITS[TIME_UNITS.length - 1]!)[0];
}

async function planX(connection: DuckDBConnection, input: ChartInput, points: number): Promise<XPlan> {
  const x: Column = input.x;
  const name = quoteIdentifier(x.name);
  const kind = kindOf(x);
  if (kind === 'text') {
    return { expression: cellExpression(x), bucket: null, truncated: (await distinctCount(connection, input, x)) > points };
  }
  const reader = await connection.runAndReadAll(
    kind === 'time'
      ? `SELECT epoch(min(${name})::TIMESTAMP), epoch(max(${name})::TIMESTAMP), count(DISTINCT ${name}) FROM (${input.base})`
      : `SELECT CAST(min(${name}) AS DOUBLE), CAST(max(${name}) AS DOUBLE), count(DISTINCT ${name}) FROM (${input.base})`,
    input.params,
  );
  const [low = null, high = null, distinct = 0] = (reader.getRows()[0] ?? []).map((v) => (v === null ? null : Number(v)));
  if (low === null || high === null) return { expression: cellExpression(x), bucket: null, truncated: false };
  if (kind === 'time') {
    const unit = timeUnitFor(high - low);
    return { expression: timestampText(x, `date_trunc('${unit}', CAST(${name} AS TIMESTAMP))`), bucket: unit, truncated: false };
  }
  if ((distinct ?? 0) <= points) return { expression: cellExpression(x), bucket: null, truncated: false };
  const width = niceWidth((high - low) / points);
  return { expression: `floor(CAST(${name} AS DOUBLE) / ${width}) * ${width}`, bucket: `bins of ${width}`, truncated: false };
}

/** A bin width of 1, 2 or 5 times a power of ten, at least `raw`, so bin edges read well. */
function niceWidth(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const width = [1, 2, 5, 10].map((m) => m * power).find((w) => w >= raw) ?? 10 * power;
  return Number(width.toPrecision(12));
}
