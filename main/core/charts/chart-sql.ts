import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { ChartData } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';
import { isNumberType } from '../cache/storage-types.ts';

// What every kind of chart builds on: the cached rows as the request filtered them, the columns it
// named (checked against the result's), and how a column reads on an axis.

/** Groups beyond these (the most frequent first) are left out: more colours than this cannot be told apart. */
export const MAX_GROUPS = 10;

export type Aggregation = NonNullable<ChartData['aggregation']>;

export interface ChartInput {
  x: Column;
  ys: Column[];
  group: Column | null;
  aggregation: Aggregation;
  /** `SELECT * FROM <cached table> [WHERE <filters>]`, with `params` bound. */
  base: string;
  params: string[];
}

export function kindOf(column: Column): ChartData['x']['kind'] {
  if (/^(TIMESTAMP|DATE)/.test(column.type)) return 'time';
  return isNumberType(column.type) ? 'number' : 'text';
}

// Integers past 64 bits are summed as doubles: a 128-bit sum would overflow where a uint256
// column's values are large, and a double's sum is exact up to 2^53 and an estimate past it,
// which the chart marks (see chart-query.ts).
const WIDE_INTEGER = /^(U?HUGEINT|BIGNUM)$/;

/** One y column's value per x (and group); numbers as doubles, anything else (a min of text) as text. */
export function aggregate(aggregation: Aggregation, y: Column): string {
  const column = quoteIdentifier(y.name);
  if (aggregation === 'count') return `count(${column})`;
  if ((aggregation === 'sum' || aggregation === 'avg') && WIDE_INTEGER.test(y.type)) return `${aggregation}(CAST(${column} AS DOUBLE))`;
  const value = `${aggregation}(${column})`;
  return isNumberType(y.type) ? `CAST(${value} AS DOUBLE)` : `CAST(${value} AS VARCHAR)`;
}

/** Each y column's aggregate, or the rows counted when there is none. */
export function aggregates(input: ChartInput): string[] {
  return input.ys.length === 0 ? ['count(*)'] : input.ys.map((y) => aggregate(input.aggregation, y));
}

export async function distinctCount(connection: DuckDBConnection, input: ChartInput, column: Column): Promise<number> {
  const reader = await connection.runAndReadAll(
    `SELECT count(DISTINCT ${quoteIdentifier(column.name)}) FROM (${input.base})`,
    input.params,
  );
  return Number(reader.getRows()[0]?.[0] ?? 0);
}

/** The most frequent groups, as a CTE and the condition that keeps their rows; nothing without a group. */
export function topGroups(input: ChartInput): { cte: string; condition: string } | null {
  if (!input.group) return null;
  const name = quoteIdentifier(input.group.name);
  return {
    cte: `top_groups AS (SELECT ${name} AS g FROM base GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${MAX_GROUPS})`,
    condition: `${name} IN (SELECT g FROM top_groups)`,
  };
}
