import type { DuckDBConnection } from '@duckdb/node-api';
import { ok, type CellValue, type ColumnProfile, type Result } from '../../contract/index.ts';
import { compileResultRequest, FilterLanguageError, quoteName, resolveColumn, type Column } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { valueErrors } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { cellExpression, toCacheCell } from '../cache/storage-types.ts';
import { languageFailure } from '../results/view.ts';

// One column of a cached result described in a few DuckDB scans: nulls, distinct values, range,
// mean and quartiles, its most frequent values and an equal-width histogram; over the whole result
// or the rows its filters let through. Values come out in the service's JSON shapes, as grid cells.

/** Counted exactly up to here; past it, DuckDB's HyperLogLog estimate is given, and said so. */
const EXACT_DISTINCT = 100_000;
const TOP_VALUES = 10;
const BINS = 20;

const NUMBER = /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|DECIMAL\(.*\))$/;
const TIME = /^(DATE|TIMESTAMP)/;

function kindOf(column: Column): ColumnProfile['kind'] {
  if (NUMBER.test(column.type)) return 'number';
  return TIME.test(column.type) ? 'time' : 'text';
}

/** The column's values as a number a histogram can bin: epoch milliseconds for times. */
function numeric(kind: ColumnProfile['kind']): string {
  return kind === 'time' ? 'epoch_ms(CAST(v AS TIMESTAMP))' : 'CAST(v AS DOUBLE)';
}

export async function profileFromCache(db: CacheDb, entry: CacheEntry, name: string, filters: string | undefined): Promise<Result<ColumnProfile>> {
  let column: Column;
  let where: { sql: string; params: string[] } | null;
  try {
    column = resolveColumn({ name, position: 1 }, entry.columns, 'columns');
    where = compileResultRequest({ filters }, entry.columns).where;
  } catch (error) {
    if (error instanceof FilterLanguageError) return languageFailure(error);
    throw error;
  }
  const kind = kindOf(column);
  const source = `src AS (SELECT ${quoteName(column.name)} AS v FROM ${quoteName(entry.tableName)}${where ? ` WHERE ${where.sql}` : ''})`;
  const params = where?.params ?? [];
  return db.withConnection((connection) =>
    valueErrors(async () => {
      const stats = await summary(connection, source, params, column, kind);
      const distinct = stats.approx <= EXACT_DISTINCT ? { count: await exactDistinct(connection, source, params), exact: true } : { count: stats.approx, exact: false };
      return ok({
        column: column.name,
        type: entry.wireTypes[entry.columns.indexOf(column)] ?? column.type,
        kind,
        rowCount: stats.rows,
        nullCount: stats.rows - stats.present,
        distinct,
        min: stats.min,
        max: stats.max,
        mean: stats.mean,
        quartiles: stats.quartiles,
        top: await topValues(connection, source, params, column),
        // NaN and infinities have no place on a number line: such a column gets no bars
        histogram: Number.isFinite(stats.low) && Number.isFinite(stats.high) ? await histogram(connection, source, params, kind, stats.low!, stats.high!) : [],
        fromCache: { fetchedAt: entry.fetchedAt },
      });
    }),
  );
}

interface Summary {
  rows: number;
  present: number;
  approx: number;
  min: CellValue;
  max: CellValue;
  mean: number | null;
  quartiles: [CellValue, CellValue, CellValue] | null;
  /** The range as numbers, for the histogram's bins. */
  low: number | null;
  high: number | null;
}

async function summary(connection: DuckDBConnection, source: string, params: string[], column: Column, kind: ColumnProfile['kind']): Promise<Summary> {
  // typed aggregates keep the column's type, so they are shaped as its cells are
  const typed = (alias: string) => cellExpression({ name: alias, type: column.type });
  const quartiles =
    kind === 'number'
      ? ', quantile_cont(CAST(v AS DOUBLE), 0.25) AS q1, quantile_cont(CAST(v AS DOUBLE), 0.5) AS q2, quantile_cont(CAST(v AS DOUBLE), 0.75) AS q3'
      : kind === 'time'
        ? ', quantile_disc(v, 0.25) AS q1, quantile_disc(v, 0.5) AS q2, quantile_disc(v, 0.75) AS q3'
        : '';
  const quartileCells = kind === 'number' ? ', q1, q2, q3' : kind === 'time' ? `, ${typed('q1')}, ${typed('q2')}, ${typed('q3')}` : '';
  const range = kind === 'text' ? '' : `, min(${numeric(kind)}) AS low, max(${numeric(kind)}) AS high`;
  const mean = kind === 'number' ? ', avg(CAST(v AS DOUBLE)) AS mean' : '';
  const reader = await connection.runAndReadAll(
    `WITH ${source}, s AS (SELECT count(*) AS n, count(v) AS present, approx_count_distinct(v) AS approx, min(v) AS lo, max(v) AS hi${mean}${quartiles}${range} FROM src)
     SELECT n, present, approx, ${typed('lo')}, ${typed('hi')}, ${mean ? 'mean' : 'NULL'}${quartileCells}${range ? ', low, high' : ''} FROM s`,
    params,
  );
  const row = reader.getRows()[0]!.map(toCacheCell);
  const at = (index: number) => row[index] ?? null;
  const quartileStart = 6;
  const rangeStart = quartileCells ? 9 : 6;
  const asNumber = (value: CellValue) => (value === null ? null : Number(value));
  return {
    rows: Number(at(0)),
    present: Number(at(1)),
    approx: Number(at(2)),
    min: at(3),
    max: at(4),
    mean: asNumber(at(5)),
    quartiles: quartileCells ? [at(quartileStart), at(quartileStart + 1), at(quartileStart + 2)] : null,
    low: range ? asNumber(at(rangeStart)) : null,
    high: range ? asNumber(at(rangeStart + 1)) : null,
  };
}

async function exactDistinct(connection: DuckDBConnection, source: string, params: string[]): Promise<number> {
  const reader = await connection.runAndReadAll(`WITH ${source} SELECT count(DISTINCT v) FROM src`, params);
  return Number(reader.getRows()[0]?.[0] ?? 0);
}

async function topValues(connection: DuckDBConnection, source: string, params: string[], column: Column): Promise<ColumnProfile['top']> {
  const reader = await connection.runAndReadAll(
    `WITH ${source}, t AS (SELECT v, count(*) AS n FROM src WHERE v IS NOT NULL GROUP BY v ORDER BY n DESC, v LIMIT ${TOP_VALUES})
     SELECT ${cellExpression({ name: 'v', type: column.type })}, n FROM t ORDER BY n DESC, t.v`,
    params,
  );
  return reader.getRows().map(([value, count]) => ({ value: toCacheCell(value), count: Number(count) }));
}

async function histogram(
  connection: DuckDBConnection,
  source: string,
  params: string[],
  kind: ColumnProfile['kind'],
  low: number,
  high: number,
): Promise<ColumnProfile['histogram']> {
  const width = (high - low) / BINS;
  if (!(width > 0)) {
    const reader = await connection.runAndReadAll(`WITH ${source} SELECT count(v) FROM src`, params);
    return [{ from: low, to: high, count: Number(reader.getRows()[0]?.[0] ?? 0) }];
  }
  const reader = await connection.runAndReadAll(
    `WITH ${source} SELECT least(CAST(floor((${numeric(kind)} - ${low}) / ${width}) AS INTEGER), ${BINS - 1}) AS bin, count(*)
     FROM src WHERE v IS NOT NULL GROUP BY bin`,
    params,
  );
  const counts = new Map(reader.getRows().map(([bin, count]) => [Number(bin), Number(count)]));
  return Array.from({ length: BINS }, (_, bin) => ({ from: low + bin * width, to: bin === BINS - 1 ? high : low + (bin + 1) * width, count: counts.get(bin) ?? 0 }));
}
