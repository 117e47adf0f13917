import { kindOf as typeKind, parseType } from '../../common/dune-types/index.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import { ok, type CellValue, type ColumnProfile, type Result } from '../../contract/index.ts';
import { compileResultRequest, FilterLanguageError, resolveColumn, type Column } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { valueErrors } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { cellExpression, isNumberType, toCacheCell } from '../cache/storage-types.ts';
import { languageFailure } from '../results/view.ts';
import { estimateDistinct } from './distinct-count.ts';
import type { Query } from './profile-query.ts';

// One column of a result described in a few DuckDB scans: nulls, distinct values, range, mean and
// quartiles, its most frequent values and an equal-width histogram; over the whole cached result or
// the rows its filters let through (or a sample, see sampled-profile.ts). Values come out in the
// service's JSON shapes, as grid cells.

/** Present values counted exactly (with the top values) up to here; past it, estimated (see distinct-count.ts). */
const EXACT_DISTINCT = 1_000_000;
const TOP_VALUES = 10;
const EXACT_QUARTILES = 100_000;
const BINS = 20;

const TIME = /^(DATE|TIMESTAMP)/;

function kindOf(column: Column): ColumnProfile['kind'] {
  if (isNumberType(column.type)) return 'number';
  return TIME.test(column.type) ? 'time' : 'text';
}

/** The column's values as a number a histogram can bin: epoch milliseconds for times. */
function numeric(kind: ColumnProfile['kind']): string {
  return kind === 'time' ? 'epoch_ms(CAST(v AS TIMESTAMP))' : 'CAST(v AS DOUBLE)';
}

export async function profileFromCache(
  db: CacheDb,
  entry: CacheEntry,
  name: string,
  filters: string | undefined,
): Promise<Result<ColumnProfile>> {
  let column: Column;
  let where: { sql: string; params: string[] } | null;
  try {
    column = resolveColumn({ name, position: 1 }, entry.columns, 'columns');
    where = compileResultRequest({ filters }, entry.columns).where;
  } catch (error) {
    if (error instanceof FilterLanguageError) return languageFailure(error);
    throw error;
  }
  const source = `src AS (SELECT ${quoteIdentifier(column.name)} AS v FROM ${quoteIdentifier(entry.tableName)}${where ? ` WHERE ${where.sql}` : ''})`;
  const params = where?.params ?? [];
  const query = (sql: string) =>
    db.withConnection((connection) => connection.runAndReadAll(`WITH ${source} ${sql}`, params).then((reader) => reader.getRows()));
  const wireType = entry.wireTypes[entry.columns.indexOf(column)] ?? column.type;
  return valueErrors(async () =>
    ok({ ...(await describeColumn(query, column, wireType)), fromCache: { fetchedAt: entry.fetchedAt }, sampled: null }),
  );
}

/**
 * The figures of a profile, whatever its rows come from; `column.type` is the type DuckDB holds the
 * values in, `wireType` the one the service named.
 */
export async function describeColumn(
  query: Query,
  column: Column,
  wireType: string,
): Promise<Omit<ColumnProfile, 'fromCache' | 'sampled'>> {
  const kind = kindOf(column);
  const stats = await summary(query, column, kind);
  // the most frequent values of a text, or of a number or time with few values: counted in one
  // grouping, which also counts the distinct values exactly
  const grouped =
    kind === 'text' || stats.present <= EXACT_DISTINCT || stats.approx <= EXACT_DISTINCT ? await frequencies(query, column) : null;
  return {
    column: column.name,
    type: wireType,
    kind,
    rowCount: stats.rows,
    nullCount: stats.rows - stats.present,
    distinct: grouped ? { count: grouped.distinct, exact: true } : await estimateDistinct(query, stats.approx, stats.present),
    min: stats.min,
    max: stats.max,
    mean: stats.mean,
    quartiles: kind === 'text' ? null : await quartiles(query, column, kind, stats.present),
    top: grouped?.top ?? [],
    // NaN and infinities have no place on a number line: such a column gets no bars
    histogram: Number.isFinite(stats.low) && Number.isFinite(stats.high) ? await histogram(query, kind, stats.low!, stats.high!) : [],
  };
}

interface Summary {
  rows: number;
  present: number;
  approx: number;
  min: CellValue;
  max: CellValue;
  mean: number | null;
  /** The range as numbers, for the histogram's bins. */
  low: number | null;
  high: number | null;
}

const asNumber = (value: CellValue | undefined) => (value === null || value === undefined ? null : Number(value));

async function summary(query: Query, column: Column, kind: ColumnProfile['kind']): Promise<Summary> {
  // typed aggregates keep the column's type, so they are shaped as its cells are
  const typed = (alias: string) => cellExpression({ ...column, name: alias });
  const mean = kind === 'number' ? 'avg(CAST(v AS DOUBLE))' : 'NULL';
  const [low, high] = kind === 'text' ? ['NULL', 'NULL'] : [`min(${numeric(kind)})`, `max(${numeric(kind)})`];
  const [row] = await query(
    `, s AS (SELECT count(*) AS n, count(v) AS present, approx_count_distinct(v) AS approx, min(v) AS lo, max(v) AS hi, ${mean} AS mean, ${low} AS low, ${high} AS high FROM src)
     SELECT n, present, approx, ${typed('lo')}, ${typed('hi')}, mean, low, high FROM s`,
  );
  const [rows, present, approx, min, max, meanValue, lowValue, highValue] = row!.map(toCacheCell);
  return {
    rows: Number(rows),
    present: Number(present),
    approx: Number(approx),
    min: min ?? null,
    max: max ?? null,
    mean: asNumber(meanValue),
    low: asNumber(lowValue),
    high: asNumber(highValue),
  };
}

async function frequencies(query: Query, column: Column): Promise<{ distinct: number; top: ColumnProfile['top'] }> {
  const rows = await query(
    `, g AS (SELECT v, count(*) AS n FROM src WHERE v IS NOT NULL GROUP BY v), t AS (SELECT v, n FROM g ORDER BY n DESC, v LIMIT ${TOP_VALUES})
     SELECT (SELECT count(*) FROM g), ${cellExpression({ ...column, name: 'v' })}, n FROM (SELECT 1) LEFT JOIN t ON true ORDER BY n DESC, t.v`,
  );
  const distinct = Number(rows[0]?.[0] ?? 0);
  const top = rows.filter((row) => row[2] !== null).map(([, value, count]) => ({ value: toCacheCell(value), count: Number(count) }));
  return { distinct, top };
}

/**
 * The 25th, 50th and 75th percentiles. A time's and a whole number's are values of the column
 * (exact), or a whole number's estimate rounded to one. A fraction's are interpolated, exactly up
 * to EXACT_QUARTILES values and estimated by DuckDB's t-digest beyond, which keeps a million values
 * in about half the time.
 */
async function quartiles(query: Query, column: Column, kind: ColumnProfile['kind'], present: number): Promise<ColumnProfile['quartiles']> {
  if (present === 0) return null;
  const whole = kind === 'number' && isWholeNumber(column.type);
  const exact = kind === 'time' || present <= EXACT_QUARTILES;
  const [aggregate, type] =
    kind === 'time' || (whole && exact)
      ? ['quantile_disc(v, [0.25, 0.5, 0.75])', column.type]
      : exact
        ? ['quantile_cont(CAST(v AS DOUBLE), [0.25, 0.5, 0.75])', 'DOUBLE']
        : [`list_transform(approx_quantile(CAST(v AS DOUBLE), [0.25, 0.5, 0.75]), q -> ${whole ? 'round(q)' : 'q'})`, 'DOUBLE'];
  const cells = ['q1', 'q2', 'q3'].map((name) => cellExpression({ name, type, duneType: column.duneType })).join(', ');
  const [row] = await query(
    `, s AS (SELECT ${aggregate} AS q FROM src), e AS (SELECT q[1] AS q1, q[2] AS q2, q[3] AS q3 FROM s) SELECT ${cells} FROM e`,
  );
  const [q1, q2, q3] = row!.map(toCacheCell);
  return { values: [q1 ?? null, q2 ?? null, q3 ?? null], exact };
}

function isWholeNumber(type: string): boolean {
  const parsed = parseType(type);
  const kind = typeKind(parsed);
  return kind === 'integer' || kind === 'big-integer' || (kind === 'decimal' && parsed.params[1] === 0);
}

async function histogram(query: Query, kind: ColumnProfile['kind'], low: number, high: number): Promise<ColumnProfile['histogram']> {
  const width = (high - low) / BINS;
  if (!(width > 0)) {
    const [row] = await query('SELECT count(v) FROM src');
    return [{ from: low, to: high, count: Number(row?.[0] ?? 0) }];
  }
  const rows = await query(
    `SELECT least(CAST(floor((${numeric(kind)} - ${low}) / ${width}) AS INTEGER), ${BINS - 1}) AS bin, count(*) FROM src WHERE v IS NOT NULL GROUP BY bin`,
  );
  const counts = new Map(rows.map(([bin, count]) => [Number(bin), Number(count)]));
  return Array.from({ length: BINS }, (_, bin) => ({
    from: low + bin * width,
    to: bin === BINS - 1 ? high : low + (bin + 1) * width,
    count: counts.get(bin) ?? 0,
  }));
}
