import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import { SCATTER_MAX_POINTS } from '../../contract/index.ts';
import { cellExpression, toCacheCell } from '../cache/storage-types.ts';
import type { ChartPart } from './chart-series.ts';
import { distinctCount, MAX_GROUPS, topGroups, type ChartInput } from './chart-sql.ts';

// A scatter plots rows, not aggregates: every row with an x, or a uniform sample of them when there
// are more than a canvas can draw and a person can read.

export async function scatterPoints(connection: DuckDBConnection, input: ChartInput): Promise<ChartPart> {
  const groups = input.group ? await distinctCount(connection, input, input.group) : 0;
  const top = topGroups(input);
  const kept = [`${quoteIdentifier(input.x.name)} IS NOT NULL`, ...(top ? [top.condition] : [])];
  const values = input.ys.map((y) => `CAST(${quoteIdentifier(y.name)} AS DOUBLE)`);
  const points = `WITH base AS (${input.base})${top ? `, ${top.cte}` : ''},
    points AS (SELECT ${cellExpression(input.x)}, ${input.group ? cellExpression(input.group) : 'NULL'}, ${values.join(', ')} FROM base WHERE ${kept.join(' AND ')})`;
  const counted = await connection.runAndReadAll(`${points} SELECT count(*) FROM points`, input.params);
  const total = Number(counted.getRows()[0]?.[0] ?? 0);
  const sampled = total > SCATTER_MAX_POINTS;
  // a reservoir sample gives every row the same chance; repeatable, so drawing again shows the same points
  const sample = sampled ? ` USING SAMPLE reservoir(${SCATTER_MAX_POINTS} ROWS) REPEATABLE (14)` : '';
  const reader = await connection.runAndReadAll(`${points} SELECT * FROM points${sample} ORDER BY 1`, input.params);
  return {
    bucket: null,
    rows: reader.getRows().map((row) => row.map(toCacheCell)),
    other: null,
    sample: sampled ? { shown: SCATTER_MAX_POINTS, total } : null,
    truncated: groups > MAX_GROUPS,
  };
}
