import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { expect } from 'vitest';
import { GRID_BLOCK_ROWS } from '../../main/common/page-reads.ts';

// For the DuckDBs that read pages (page-reads.ts): a sorted page as large as the grid's block is
// read in two passes, one row more in one, and both give the same rows.

/** Whether DuckDB reads `sql` in two passes: the page's rowids first, then their rows joined on them. */
async function readsInTwoPasses(connection: DuckDBConnection, { sql, params }: PageSql): Promise<boolean> {
  const plan = (await connection.runAndReadAll(`EXPLAIN ${sql}`, params))
    .getRows()
    .map((row) => String(row[1]))
    .join('\n');
  return /SEMI/.test(plan) && /rowid = rowid/.test(plan);
}

const json = (rows: unknown[][]) => JSON.stringify(rows, (_, value) => (typeof value === 'bigint' ? String(value) : value));

export interface PageSql {
  sql: string;
  params?: DuckDBValue[];
}

/**
 * Checks the sorted pages of `limit` rows from `offset` that `page` writes, at each of `offsets`:
 * two passes for a grid's block, one for a row more, and the same rows.
 */
export async function expectTwoPassBlocks(
  connection: DuckDBConnection,
  page: (limit: number, offset: number) => PageSql,
  offsets: number[],
): Promise<void> {
  const block = GRID_BLOCK_ROWS;
  for (const offset of offsets) {
    expect(await readsInTwoPasses(connection, page(block, offset))).toBe(true);
    expect(await readsInTwoPasses(connection, page(block + 1, offset))).toBe(false);
    const rows = ({ sql, params }: PageSql) => connection.runAndReadAll(sql, params).then((reader) => reader.getRows());
    const twoPasses = await rows(page(block, offset));
    const onePass = await rows(page(block + 1, offset));
    expect(twoPasses).toHaveLength(block);
    expect(json(twoPasses)).toBe(json(onePass.slice(0, block)));
  }
}
