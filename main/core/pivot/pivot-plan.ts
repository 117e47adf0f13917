import { isNumeric, kindOf, parseType, type TypeKind } from '../../common/dune-types/index.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { PivotGroupBy, PivotMeasure, PivotSettings, TimeGrain } from '../../contract/pivot-models.ts';
import type { Column } from '../../filter-language/index.ts';
import type { CacheEntry } from '../cache/manifest.ts';

// A pivot's settings checked against a cached result's columns, each grouping and measure made a
// SQL expression; what cannot be pivoted is refused here, with the reason, before any SQL runs.

/** A column grouped by, or split by: its expression gives each row's group. */
export interface Grouping {
  column: Column;
  /** The type the service named. */
  wireType: string;
  grain: TimeGrain | null;
  expression: string;
  /** The DuckDB type of its groups' values. */
  type: string;
}

export interface MeasurePlan {
  label: string;
  fn: PivotMeasure['fn'];
  column: Column | null;
  /** The aggregate of the rows that `rows` (a SQL condition, or none) keeps. */
  aggregate: (rows: string | null) => string;
  /** The DuckDB type of its value, which says how the value is read out. */
  type: string;
  /** The type shown for it: the service's name for min and max, DuckDB's (lower case) for the rest. */
  shownType: string;
  /** Taken over doubles from integers past 64 bits: a value past 2^53 is an estimate. */
  estimated: boolean;
  /**
   * The measure from aggregates of the leaf groups' rows (`partials`), combined over the leaves by
   * `combine`, which is given each partial's combining aggregate; null for a distinct count or a
   * median, which only the rows give.
   */
  decomposed: Decomposed | null;
}

/** `part(fn, i)`: the aggregate `fn` over the leaves of partial `i`. */
export interface Decomposed {
  partials: string[];
  combine: (part: (fn: 'sum' | 'min' | 'max', index: number) => string) => string;
}

export interface PivotPlan {
  rows: Grouping[];
  split: (Grouping & { top: number }) | null;
  measures: MeasurePlan[];
}

/** A pivot the result cannot give, with what is wrong and where. */
export class PivotRefused extends Error {}

const LABELS: Record<PivotMeasure['fn'], string> = {
  count: 'Count',
  sum: 'Sum',
  avg: 'Average',
  min: 'Min',
  max: 'Max',
  count_distinct: 'Distinct',
  median: 'Median',
};
// Integers past 64 bits are summed (and averaged) as doubles: a 128-bit sum overflows where a
// uint256 column's values are large. A double's sum is exact up to 2^53; past it, it is marked.
const WIDE_INTEGER = /^(U?HUGEINT|BIGNUM)$/;
const NEEDS_NUMBERS = new Set<PivotMeasure['fn']>(['sum', 'avg', 'median']);
const TIME_ONLY_GRAINS = new Set(['minute', 'hour']);

function kindOfColumn(entry: CacheEntry, column: Column): TypeKind {
  return kindOf(parseType(wireTypeOf(entry, column)));
}

function wireTypeOf(entry: CacheEntry, column: Column): string {
  return entry.wireTypes[entry.columns.indexOf(column)] ?? column.type;
}

function find(entry: CacheEntry, name: string, role: string): Column {
  const column = entry.columns.find((c) => c.name === name) ?? entry.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!column) throw new PivotRefused(`${role}: the result has no column named "${name}"`);
  const kind = kindOfColumn(entry, column);
  if (kind === 'nested' || kind === 'json') {
    throw new PivotRefused(
      `${role}: ${column.name} holds ${wireTypeOf(entry, column)} values, which a pivot cannot group or measure; pick a column of single values`,
    );
  }
  return column;
}

function grouping(entry: CacheEntry, { column: name, grain = null }: PivotGroupBy, role: string): Grouping {
  const column = find(entry, name, role);
  const quoted = quoteIdentifier(column.name);
  if (!grain) return { column, wireType: wireTypeOf(entry, column), grain: null, expression: quoted, type: column.type };
  const kind = kindOfColumn(entry, column);
  if (kind !== 'date' && kind !== 'timestamp') {
    throw new PivotRefused(`${role}: ${column.name} holds ${wireTypeOf(entry, column)} values, not times; only times group by ${grain}`);
  }
  if (kind === 'date' && TIME_ONLY_GRAINS.has(grain)) {
    throw new PivotRefused(`${role}: ${column.name} holds dates, which have no ${grain}; group it by day, week or month`);
  }
  const cut = `date_trunc('${grain}', ${quoted})`;
  const type = kind === 'date' ? 'DATE' : column.type;
  return { column, wireType: wireTypeOf(entry, column), grain, expression: kind === 'date' ? `CAST(${cut} AS DATE)` : cut, type };
}

/** Sum, average and median of numbers, in the type DuckDB gives each exactly where it can. */
function numberMeasure(fn: 'sum' | 'avg' | 'median', column: Column): Pick<MeasurePlan, 'type' | 'estimated'> & { input: string } {
  const quoted = quoteIdentifier(column.name);
  const estimated = WIDE_INTEGER.test(column.type);
  if (estimated || fn !== 'sum') return { input: `CAST(${quoted} AS DOUBLE)`, type: 'DOUBLE', estimated };
  const decimal = /^DECIMAL\(\d+,(\d+)\)$/.exec(column.type);
  if (decimal) return { input: quoted, type: `DECIMAL(38,${decimal[1]})`, estimated };
  return { input: quoted, type: /^(FLOAT|DOUBLE)$/.test(column.type) ? 'DOUBLE' : 'HUGEINT', estimated };
}

function measure(entry: CacheEntry, { fn, column: name }: PivotMeasure, index: number): MeasurePlan {
  const role = `measure ${index + 1} (${LABELS[fn].toLowerCase()})`;
  const filtered = (call: string) => (rows: string | null) => (rows ? `${call} FILTER (WHERE ${rows})` : call);
  if (fn === 'count' || !name)
    return {
      label: 'Count',
      fn: 'count',
      column: null,
      aggregate: filtered('count(*)'),
      type: 'BIGINT',
      shownType: 'bigint',
      estimated: false,
      decomposed: { partials: ['count(*)'], combine: (part) => `CAST(coalesce(${part('sum', 0)}, 0) AS BIGINT)` },
    };
  const column = find(entry, name, role);
  const label = `${LABELS[fn]} of ${column.name}`;
  const quoted = quoteIdentifier(column.name);
  if (NEEDS_NUMBERS.has(fn)) {
    if (!isNumeric(kindOfColumn(entry, column))) {
      throw new PivotRefused(
        `${role}: ${column.name} holds ${wireTypeOf(entry, column)} values, not numbers; count them or take their min or max`,
      );
    }
    const { input, type, estimated } = numberMeasure(fn as 'sum' | 'avg' | 'median', column);
    // an average is its sum over its count of values: over no value, a null sum makes it null
    const decomposed: Decomposed | null =
      fn === 'sum'
        ? { partials: [`sum(${input})`], combine: (part) => `CAST(${part('sum', 0)} AS ${type})` }
        : fn === 'avg'
          ? {
              // summed in the column's own type (a decimal's sum is exact and fast) where it holds it
              partials: [`sum(${estimated ? input : quoted})`, `count(${quoted})`],
              combine: (part) => `CAST(${part('sum', 0)} AS DOUBLE) / ${part('sum', 1)}`,
            }
          : null;
    return { label, fn, column, aggregate: filtered(`${fn}(${input})`), type, shownType: type.toLowerCase(), estimated, decomposed };
  }
  if (fn === 'count_distinct') {
    const distinct = `count(DISTINCT ${quoted})`;
    return { label, fn, column, aggregate: filtered(distinct), type: 'BIGINT', shownType: 'bigint', estimated: false, decomposed: null };
  }
  return {
    label,
    fn,
    column,
    aggregate: filtered(`${fn}(${quoted})`),
    type: column.type,
    shownType: wireTypeOf(entry, column),
    estimated: false,
    decomposed: { partials: [`${fn}(${quoted})`], combine: (part) => part(fn as 'min' | 'max', 0) },
  };
}

/** The plan of `settings` over `entry`'s columns; throws PivotRefused with the reason. */
export function planPivot(entry: CacheEntry, settings: PivotSettings): PivotPlan {
  const rows = settings.rows.map((row, i) => grouping(entry, row, `row group ${i + 1}`));
  const split = settings.split ? { ...grouping(entry, settings.split, 'split'), top: settings.split.top } : null;
  const measures = settings.measures.map((m, i) => measure(entry, m, i));
  if (settings.sort && settings.sort.measure >= measures.length) {
    throw new PivotRefused(`sort: there is no measure ${settings.sort.measure + 1}; the pivot has ${measures.length}`);
  }
  return { rows, split, measures };
}
