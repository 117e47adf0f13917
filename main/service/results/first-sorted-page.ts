import { availableParallelism } from 'node:os';
import { valuesOf } from '../../common/statement-values.ts';
import { assertWindow, rowPositionName, unusedName, type PageQuery } from './page-sql.ts';
import type { Page, PageEncoding } from './page.ts';
import type { ResultReader } from './result-reader.ts';
import { totalBytesSql, type StoredSize } from './row-bytes.ts';

// A speed-up over the plain path (page-sql.ts) for the first sorted page of a filter nobody asked
// before, which needs the filter's total too, of a result stored without its rows' sizes (those
// with them are counted by them, row-sizes.ts). Read apart, the page's top-N sort and the count
// each scanned the whole result, on a thread each. Here one statement filters each part of the
// rows once, counts what passed and keeps its best rows; the parts run at once, on a core each,
// when the service has nothing else to read, and the page is the best rows of all parts.

/** Windows deeper than this are left to the plain path: each part would keep as many rows. */
export const FIRST_SORTED_ROWS = 10_000;
const MAX_PARTS = Math.min(4, availableParallelism());
// A part needs enough rows for a statement of its own to pay back.
const PART_MIN_ROWS = 100_000;

let made = 0;

/** Whether `firstSortedPage` reads this page: a filtered, sorted, shallow window of the rows as stored. */
export function readsFirstSorted(query: PageQuery): boolean {
  return (
    query.where != null &&
    query.orderBy != null &&
    query.samplePercent == null &&
    query.limit > 0 &&
    query.offset + query.limit <= FIRST_SORTED_ROWS
  );
}

/** The parts to split a read of `rows` stored rows into, with `busy` other reads under way. */
export function partsFor(rows: number, busy: number): number {
  if (busy > 0) return 1;
  return Math.max(1, Math.min(MAX_PARTS, Math.floor(rows / PART_MIN_ROWS)));
}

/** Part `i`'s rowids: the first part has no lower bound, the last no upper one, so together they hold every row. */
function partRange(i: number, parts: number, size: number): string {
  const bounds = [i > 0 ? `rowid >= ${i * size}` : '', i < parts - 1 ? `rowid < ${(i + 1) * size}` : ''];
  return bounds.map((bound) => (bound ? `${bound} AND ` : '')).join('');
}

/** Waits for every part, so that none is still making its table as they are dropped; then throws the first error. */
async function allDone(parts: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(parts)).find((part) => part.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The page `query` asks for and the rows and bytes its filter lets through, each the same as the
 * plain path's page and the count's (`measureRows`). `query` must be one `readsFirstSorted` takes.
 */
export async function firstSortedPage(
  reader: ResultReader,
  executionId: string,
  query: PageQuery,
  encoding: PageEncoding,
): Promise<[StoredSize, Page]> {
  assertWindow(query);
  const { tableColumns, where, orderBy, offset, limit, storedRows } = query;
  const row = rowPositionName(tableColumns);
  const passed = unusedName(tableColumns, '__passed');
  const bytes = unusedName(tableColumns, '__bytes');
  const parts = partsFor(storedRows, reader.busy);
  const size = Math.ceil(storedRows / parts);
  const names = Array.from({ length: parts }, (_, i) => `memory.main.first_${++made}_${i}`);
  return reader.files.use(executionId, async (table) => {
    try {
      // a part's table holds its best rows, each with the part's count and bytes (none when no row passed)
      await allDone(
        names.map((name, i) =>
          reader.withConnection((connection) =>
            connection.run(
              `CREATE TABLE ${name} AS WITH passed AS MATERIALIZED (SELECT *, rowid AS ${row} FROM ${table.sql} ` +
                `WHERE ${partRange(i, parts, size)}(${where!.sql})) ` +
                `SELECT (SELECT count(*) FROM passed)::BIGINT AS ${passed}, (SELECT ${totalBytesSql(tableColumns)} FROM passed)::BIGINT AS ${bytes}, * ` +
                `FROM (SELECT * FROM passed ORDER BY ${orderBy}, ${row} LIMIT ${offset + limit})`,
              valuesOf(where!.params),
            ),
          ),
        ),
      );
      const best = names.map((name) => `SELECT * FROM ${name}`).join(' UNION ALL ');
      return await reader.withConnection(async (connection) => {
        const totals = names.map((name) => `SELECT any_value(${passed}) AS n, any_value(${bytes}) AS b FROM ${name}`).join(' UNION ALL ');
        const [[rowCount, byteCount]] = (
          await connection.runAndReadAll(`SELECT coalesce(sum(n), 0)::BIGINT, coalesce(sum(b), 0)::BIGINT FROM (${totals})`)
        ).getRows() as [[bigint, bigint]];
        const page = await reader.pages.write(connection, encoding, query.columns, {
          sql: `SELECT * FROM (${best}) ORDER BY ${orderBy}, ${row} LIMIT ${limit} OFFSET ${offset}`,
          params: [],
          orderBy: `${orderBy}, ${row}`,
          inOrder: false,
          limit,
        });
        return [{ rowCount: Number(rowCount), bytes: Number(byteCount) }, page];
      });
    } finally {
      await reader.withConnection(async (connection) => {
        for (const name of names) await connection.run(`DROP TABLE IF EXISTS ${name}`);
      });
    }
  });
}
