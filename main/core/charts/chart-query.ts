import type { DuckDBConnection } from '@duckdb/node-api';
import { fail, ok, type ChartData, type Result } from '../../contract/index.ts';
import { compileResultRequest, FilterLanguageError, quoteName, resolveColumn, type Column } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { valueErrors } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { cellExpression, timestampText, toCacheCell } from '../cache/storage-types.ts';
import { languageFailure } from '../results/view.ts';

// A chart's points, aggregated in DuckDB from a cached result, so a million rows become at most
// a couple of thousand points before anything leaves main. Time on x is truncated to the unit
// that keeps the points within budget, numbers are binned, text keeps its most frequent values;
// with a group-by, the most frequent groups each get a share of the budget.

export interface ChartSpec {
  x: string;
  y: string[];
  groupBy: string | null;
  aggregation: ChartData['aggregation'];
  filters?: string;
  maxPoints: number;
}

const MAX_GROUPS = 10;
const TIME_UNITS: [string, number][] = [
  ['second', 1],
  ['minute', 60],
  ['hour', 3600],
  ['day', 86_400],
  ['week', 604_800],
  ['month', 2_629_800],
  ['year', 31_557_600],
];
const NUMERIC = /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|DECIMAL\(.*\))$/;

function kindOf(column: Column): ChartData['x']['kind'] {
  if (/^(TIMESTAMP|DATE)/.test(column.type)) return 'time';
  return NUMERIC.test(column.type) ? 'number' : 'text';
}

export async function chartFromCache(db: CacheDb, entry: CacheEntry, spec: ChartSpec): Promise<Result<ChartData>> {
  let x: Column;
  let ys: Column[];
  let group: Column | null;
  let where: { sql: string; params: string[] } | null;
  try {
    const find = (name: string) => resolveColumn({ name, position: 1 }, entry.columns, 'columns');
    x = find(spec.x);
    ys = spec.y.map(find);
    group = spec.groupBy ? find(spec.groupBy) : null;
    where = compileResultRequest({ filters: spec.filters }, entry.columns).where;
  } catch (error) {
    if (error instanceof FilterLanguageError) return languageFailure(error);
    throw error;
  }
  const summing = spec.aggregation === 'sum' || spec.aggregation === 'avg';
  const notNumeric = ys.find((y) => summing && !NUMERIC.test(y.type));
  if (notNumeric) return fail('bad_request', `${spec.aggregation} needs a numeric column; "${notNumeric.name}" is ${notNumeric.type}.`);

  const base = `SELECT * FROM ${quoteName(entry.tableName)}${where ? ` WHERE ${where.sql}` : ''}`;
  const params = where?.params ?? [];
  const kind = kindOf(x);
  return db.withConnection((connection) =>
    valueErrors(async () => {
      const groups = group ? await distinctCount(connection, base, params, group) : 1;
      const perSeries = Math.max(1, Math.floor(spec.maxPoints / Math.min(Math.max(groups, 1), MAX_GROUPS)));
      const xPlan = await planX(connection, base, params, x, kind, perSeries);
      const filters: string[] = [];
      const ctes = [`base AS (${base})`];
      if (group) {
        ctes.push(`top_groups AS (SELECT ${quoteName(group.name)} AS g FROM base GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${MAX_GROUPS})`);
        filters.push(`${quoteName(group.name)} IN (SELECT g FROM top_groups)`);
      }
      if (kind === 'text') {
        ctes.push(`top_x AS (SELECT ${quoteName(x.name)} AS v FROM base GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${perSeries})`);
        filters.push(`${quoteName(x.name)} IN (SELECT v FROM top_x)`);
      }
      const aggregates = ys.length === 0 ? ['count(*)'] : ys.map((y) => aggregate(spec.aggregation, y));
      const sql = `WITH ${ctes.join(', ')}
        SELECT ${xPlan.expression} AS x, ${group ? cellExpression(group) : 'NULL'} AS g, ${aggregates.join(', ')}
        FROM base${filters.length ? ` WHERE ${filters.join(' AND ')}` : ''}
        GROUP BY 1, 2 ORDER BY 1, 2`;
      const reader = await connection.runAndReadAll(sql, params);
      return ok({
        x: { name: x.name, type: entry.wireTypes[entry.columns.indexOf(x)] ?? x.type, kind },
        bucket: xPlan.bucket,
        yColumns: ys.map((y) => y.name),
        groupBy: group?.name ?? null,
        aggregation: spec.aggregation,
        rows: reader.getRows().map((row) => row.map(toCacheCell)),
        truncated: groups > MAX_GROUPS || xPlan.truncated,
        fromCache: { fetchedAt: entry.fetchedAt },
      });
    }),
  );
}

function aggregate(aggregation: ChartSpec['aggregation'], y: Column): string {
  const column = quoteName(y.name);
  if (aggregation === 'count') return `count(${column})`;
  const value = `${aggregation}(${column})`;
  return NUMERIC.test(y.type) ? `CAST(${value} AS DOUBLE)` : `CAST(${value} AS VARCHAR)`;
}

async function distinctCount(connection: DuckDBConnection, base: string, params: string[], column: Column): Promise<number> {
  const reader = await connection.runAndReadAll(`SELECT count(DISTINCT ${quoteName(column.name)}) FROM (${base})`, params);
  return Number(reader.getRows()[0]?.[0] ?? 0);
}

interface XPlan {
  expression: string;
  bucket: string | null;
  truncated: boolean;
}

async function planX(connection: DuckDBConnection, base: string, params: string[], x: Column, kind: ChartData['x']['kind'], points: number): Promise<XPlan> {
  const name = quoteName(x.name);
  if (kind === 'text') {
    return { expression: cellExpression(x), bucket: null, truncated: (await distinctCount(connection, base, params, x)) > points };
  }
  const reader = await connection.runAndReadAll(
    kind === 'time'
      ? `SELECT epoch(min(${name})::TIMESTAMP), epoch(max(${name})::TIMESTAMP), count(DISTINCT ${name}) FROM (${base})`
      : `SELECT CAST(min(${name}) AS DOUBLE), CAST(max(${name}) AS DOUBLE), count(DISTINCT ${name}) FROM (${base})`,
    params,
  );
  const [low = null, high = null, distinct = 0] = (reader.getRows()[0] ?? []).map((v) => (v === null ? null : Number(v)));
  if (low === null || high === null || (distinct ?? 0) <= points) return { expression: cellExpression(x), bucket: null, truncated: false };
  const span = high - low;
  if (kind === 'time') {
    const [unit] = TIME_UNITS.find(([, seconds]) => span / seconds < points) ?? TIME_UNITS[TIME_UNITS.length - 1]!;
    return { expression: timestampText(`date_trunc('${unit}', CAST(${name} AS TIMESTAMP))`), bucket: unit, truncated: false };
  }
  const width = niceWidth(span / points);
  return { expression: `floor(CAST(${name} AS DOUBLE) / ${width}) * ${width}`, bucket: `bins of ${width}`, truncated: false };
}

/** A bin width of 1, 2 or 5 times a power of ten, at least `raw`, so bin edges read well. */
function niceWidth(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const width = [1, 2, 5, 10].map((m) => m * power).find((w) => w >= raw) ?? 10 * power;
  return Number(width.toPrecision(12));
}
