import { quoteIdentifier } from '../../common/sql-quote.ts';
import { CHART_TOP_N, fail, ok, showsTopCategories, type ChartData, type ChartKind, type Result } from '../../contract/index.ts';
import { compileResultRequest, FilterLanguageError, resolveColumn, type Column } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { valueErrors } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { isNumberType } from '../cache/storage-types.ts';
import { languageFailure } from '../results/view.ts';
import { topCategories } from './chart-categories.ts';
import { scatterPoints } from './chart-points.ts';
import { aggregatedSeries } from './chart-series.ts';
import { kindOf, type Aggregation, type ChartInput } from './chart-sql.ts';

// A chart's data, computed in DuckDB from a cached result, so only what is drawn leaves main:
// a scatter's points (sampled when there are too many), a bar's or pie's top categories and the
// rest as "Other", a line's or area's points over buckets of x.

export interface ChartSpec {
  kind: ChartKind;
  x: string;
  y: string[];
  groupBy: string | null;
  aggregation: Aggregation;
  topN?: number;
  filters?: string;
  maxPoints: number;
}

/** The request's columns and filters, checked against the result's; a failure names what is wrong. */
function inputOf(entry: CacheEntry, spec: ChartSpec): Result<ChartInput> {
  let x: Column;
  let ys: Column[];
  let group: Column | null;
  let where: { sql: string; params: string[] } | null;
  try {
    const find = (name: string) => resolveColumn({ name, position: 1 }, entry.columns, 'columns');
    x = find(spec.x);
    ys = spec.y.map(find);
    // a pie has one ring: its slices are the categories, never groups
    group = spec.groupBy && spec.kind !== 'pie' ? find(spec.groupBy) : null;
    where = compileResultRequest({ filters: spec.filters }, entry.columns).where;
  } catch (error) {
    if (error instanceof FilterLanguageError) return languageFailure(error);
    throw error;
  }
  if (spec.kind === 'scatter') {
    if (kindOf(x) === 'text')
      return fail('bad_request', `A scatter plots numbers or times on x; “${x.name}” is ${x.type}: choose a bar chart for categories.`);
    if (ys.length === 0) return fail('bad_request', 'A scatter plots rows as they are: choose at least one number column for y.');
  }
  const summing = spec.kind === 'scatter' || spec.aggregation === 'sum' || spec.aggregation === 'avg';
  const notNumeric = ys.find((y) => summing && !isNumberType(y.type));
  if (notNumeric) {
    const what = spec.kind === 'scatter' ? 'A scatter' : spec.aggregation === 'sum' ? 'A sum' : 'An average';
    return fail('bad_request', `${what} needs a numeric column for y; “${notNumeric.name}” is ${notNumeric.type}.`);
  }
  const base = `SELECT * FROM ${quoteIdentifier(entry.tableName)}${where ? ` WHERE ${where.sql}` : ''}`;
  return ok({ x, ys, group, aggregation: spec.aggregation, base, params: where?.params ?? [] });
}

/**
 * The y columns with a value no double holds exactly: a uint256's sum is drawn as a double, and
 * past 2^53 that is an estimate. Rows are [x, group, ...one value per y column].
 */
function inexactColumns(ys: Column[], rows: ChartData['rows']): string[] {
  return ys
    .filter((_, i) => rows.some((row) => typeof row[i + 2] === 'number' && Math.abs(row[i + 2] as number) > Number.MAX_SAFE_INTEGER))
    .map((y) => y.name);
}

export async function chartFromCache(db: CacheDb, entry: CacheEntry, spec: ChartSpec): Promise<Result<ChartData>> {
  const input = inputOf(entry, spec);
  if (!input.ok) return input;
  const { x, ys, group } = input.data;
  return db.withConnection((connection) =>
    valueErrors(async () => {
      const part =
        spec.kind === 'scatter'
          ? await scatterPoints(connection, input.data)
          : showsTopCategories(spec.kind, kindOf(x))
            ? await topCategories(connection, input.data, spec.topN ?? (spec.kind === 'pie' ? CHART_TOP_N.pie : CHART_TOP_N.bar))
            : await aggregatedSeries(connection, input.data, spec.maxPoints);
      return ok({
        x: { name: x.name, type: entry.wireTypes[entry.columns.indexOf(x)] ?? x.type, kind: kindOf(x) },
        yColumns: ys.map((y) => y.name),
        groupBy: group?.name ?? null,
        aggregation: spec.kind === 'scatter' ? null : spec.aggregation,
        ...part,
        inexact: inexactColumns(ys, [...part.rows, ...(part.other?.rows ?? [])]),
        fromCache: { fetchedAt: entry.fetchedAt },
      });
    }),
  );
}
