import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { CacheDb } from './cache-db.ts';
import type { CacheEntry } from './manifest.ts';
import { tryStorageCast } from './page-casts.ts';
import { storageType } from './storage-types.ts';

// The values of a cached result that do not fit their declared type: a column with one is kept as
// the text it came as (see page-casts.ts), and its values that its type cannot hold are counted
// once, for the line under the result. A cached table never changes, so a count stays true.

const counted = new Map<string, number[]>();
const MAX_COUNTED = 200;

/** A count for each column, in the result's order; null when no column was kept as text for a misfit. */
export async function valuesNotFitting(db: CacheDb, entry: CacheEntry): Promise<number[] | null> {
  const declared = entry.wireTypes.map((wire) => storageType(wire));
  const misfits = entry.columns.flatMap((column, i) => (column.type === 'VARCHAR' && declared[i] !== 'VARCHAR' ? [i] : []));
  if (misfits.length === 0) return null;
  const known = counted.get(entry.tableName);
  if (known) return known;
  const counts = misfits.map((i) => {
    const name = quoteIdentifier(entry.columns[i]!.name);
    return `count(*) FILTER (WHERE ${name} IS NOT NULL AND ${tryStorageCast(name, declared[i]!)} IS NULL)`;
  });
  const row = await db.withConnection(
    async (connection) =>
      (await connection.runAndReadAll(`SELECT ${counts.join(', ')} FROM ${quoteIdentifier(entry.tableName)}`)).getRows()[0]!,
  );
  const result = entry.columns.map((_, i) => (misfits.includes(i) ? Number(row[misfits.indexOf(i)]) : 0));
  if (counted.size >= MAX_COUNTED) counted.delete(counted.keys().next().value!);
  counted.set(entry.tableName, result);
  return result;
}
