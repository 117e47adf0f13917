import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import { cellExpression, toCacheCell } from '../cache/storage-types.ts';
import type { ChartPart } from './chart-series.ts';
import { aggregates, distinctCount, MAX_GROUPS, topGroups, type ChartInput } from './chart-sql.ts';

// Bars and pies of many categories (50,000 wallets) cannot be read: the N largest by the chart's
// measure (its first value) are shown, and every other category is aggregated into one "Other",
// so the bars still add up to the whole.

export async function topCategories(connection: DuckDBConnection, input: ChartInput, topN: number): Promise<ChartPart> {
  const x = quoteIdentifier(input.x.name);
  const values = aggregates(input);
  const countedCategories = await connection.runAndReadAll(
    `SELECT count(*) FROM (SELECT 1 FROM (${input.base}) GROUP BY ${x})`,
    input.params,
  );
  const categories = Number(countedCategories.getRows()[0]?.[0] ?? 0);
  const groups = input.group ? await distinctCount(connection, input, input.group) : 0;
  const top = topGroups(input);
  // names no result column has, so the join below cannot make a column name ambiguous
  const sql = `WITH base AS (${input.base})${top ? `, ${top.cte}` : ''},
    ranked AS (
      SELECT ${x} AS __chart_value, row_number() OVER (ORDER BY ${values[0]} DESC NULLS LAST, ${x} NULLS LAST) AS __chart_rank
      FROM base GROUP BY ${x}
    )
    SELECT least(__chart_rank, ${topN + 1}), any_value(CASE WHEN __chart_rank <= ${topN} THEN ${cellExpression(input.x)} END),
      ${input.group ? cellExpression(input.group) : 'NULL'}, ${values.join(', ')}
    FROM base JOIN ranked ON base.${x} IS NOT DISTINCT FROM ranked.__chart_value
    ${top ? `WHERE ${top.condition}` : ''}
    GROUP BY 1, 3 ORDER BY 1, 3`;
  const reader = await connection.runAndReadAll(sql, input.params);
  const rows = reader.getRows().map((row) => row.map(toCacheCell));
  const isOther = (row: unknown[]) => Number(row[0]) > topN;
  const drop = (row: ReturnType<typeof toCacheCell>[]) => row.slice(1);
  const otherRows = rows.filter(isOther).map(drop);
  return {
    bucket: null,
    rows: rows.filter((row) => !isOther(row)).map(drop),
    other: otherRows.length > 0 ? { categories: categories - topN, rows: otherRows } : null,
    sample: null,
    truncated: groups > MAX_GROUPS,
  };
}
