import { quoteIdentifier } from '../../common/sql-quote.ts';
import { fail, ok, type Result } from '../../contract/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { isNumberType } from '../cache/storage-types.ts';

// A column's sum, min or max over a cached result, in DuckDB: the figure a schedule's change rule
// watches, computed in main beside the rows, never by the window.

export async function columnFigure(
  db: CacheDb,
  entry: CacheEntry,
  column: string,
  figure: 'sum' | 'min' | 'max',
): Promise<Result<number | null>> {
  const found = entry.columns.find((c) => c.name === column);
  if (!found) {
    const names = entry.columns.map((c) => `“${c.name}”`).join(', ');
    return fail('bad_request', `The result has no column “${column}”; its columns are ${names || 'none'}.`);
  }
  if (!isNumberType(found.type)) return fail('bad_request', `The column “${column}” holds no numbers, so it has no ${figure}.`);
  const sql = `SELECT CAST(${figure}(${quoteIdentifier(found.name)}) AS DOUBLE) FROM ${quoteIdentifier(entry.tableName)}`;
  const rows = await db.withConnection((connection) => connection.runAndReadAll(sql).then((reader) => reader.getRows()));
  const value = rows[0]?.[0];
  return ok(typeof value === 'number' && Number.isFinite(value) ? value : null);
}
