import { rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteName, type Column } from '../../filter-language/index.ts';
import { sqlString } from './cache-db.ts';
import type { RowRange } from './page-ranges.ts';

// Loads page files into the staging table in result order, as they arrive in any order: whenever
// no load is running, every page that follows on from the rows loaded goes in, in one statement.
// So the loads keep up with a link's pace (the last one after the last byte is a page or two),
// and when pages come faster than they load they gather and go in several to a statement.
// All loads of a download are one transaction, committed at the end: DuckDB then writes whole
// row groups of a load to the file as they fill, and a load of one page costs about what it costs
// in a larger statement. For the million-row demo result (one thread), a page to a statement took
// 0.63 s of CPU in one transaction and 0.83 s committed each; all pages at once 0.61 s.

/** Pages that held other rows than their offsets say: the service's doing; the table is as it was before the loader. */
export class MiscountedPages extends Error {}

export interface PageLoader {
  /** A page file that holds the rows of `range`, header row included. */
  add(range: RowRange, file: string): void;
  /** Resolves once fewer than `count` pages wait, or none of them can be loaded yet; throws when a load failed. */
  drained(count: number): Promise<void>;
  /**
   * Loads every page that follows on from the rows loaded, commits, and answers the rows in the
   * table. After a failed load, rolls back and throws: the table then holds the rows it held before.
   */
  finish(): Promise<number>;
  /** Stops loading and rolls back: the table holds the rows it held before. */
  abandon(): Promise<void>;
}

export interface LoaderOptions {
  connection: DuckDBConnection;
  tableName: string;
  columns: Column[];
  /** The position of the first row to load (the rows before it are in the table already). */
  from: number;
  /** At most this many rows to a statement, so that one statement's work stays bounded. */
  batchRows: number;
}

export function createPageLoader(options: LoaderOptions): PageLoader {
  const { connection } = options;
  const arrived = new Map<number, { end: number; file: string }>();
  let next = options.from;
  let running: Promise<void> | null = null;
  let failure: unknown = null;
  let begun: Promise<void> | null = null;
  let stopped = false;
  const waiters: (() => void)[] = [];

  /** The pages that follow on from the rows loaded, up to the rows of one statement. */
  function due(): { offsets: number[]; files: string[]; end: number } | null {
    const offsets: number[] = [];
    const files: string[] = [];
    let end = next;
    for (let page = arrived.get(end); page !== undefined && (files.length === 0 || page.end - next <= options.batchRows); page = arrived.get(end)) {
      offsets.push(end);
      files.push(page.file);
      end = page.end;
    }
    return files.length > 0 ? { offsets, files, end } : null;
  }

  function kick(): void {
    if (running !== null || failure !== null || stopped) return;
    const batch = due();
    if (batch === null) return;
    // the batch's pages no longer wait: the bound on waiting pages is for those not being loaded
    for (const offset of batch.offsets) arrived.delete(offset);
    running = (async () => {
      begun ??= connection.run('BEGIN TRANSACTION').then(() => undefined);
      await begun;
      await loadFiles(options, batch.files, batch.end - next, `${next} to ${batch.end}`);
      next = batch.end;
      for (const file of batch.files) rmSync(file, { force: true });
    })()
      .catch((error: unknown) => {
        failure = error;
      })
      .finally(() => {
        running = null;
        kick();
        for (const wake of waiters.splice(0)) wake();
      });
  }

  /** Waits for the load under way (and those it starts), then ends the transaction. */
  async function end(commit: boolean): Promise<void> {
    while (running !== null) await running;
    if (begun === null) return;
    if (commit && failure === null) {
      await connection.run('COMMIT');
      return;
    }
    next = options.from;
    await connection.run('ROLLBACK').catch(() => undefined);
  }

  return {
    add(range, file) {
      arrived.set(range.offset, { end: range.end, file });
      kick();
    },
    async drained(count) {
      while (arrived.size >= count && running !== null) await new Promise<void>((resolve) => waiters.push(resolve));
      if (failure !== null) throw failure;
    },
    async finish() {
      await end(true);
      if (failure !== null) throw failure;
      return next;
    },
    async abandon() {
      stopped = true;
      await end(false);
    },
  };
}

/** Loads the files whole or not at all: a failed statement leaves the transaction to be rolled back. */
async function loadFiles({ connection, tableName, columns }: LoaderOptions, files: string[], expectedRows: number, rowsNamed: string): Promise<void> {
  const raw = columns.map((_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const casts = columns.map((c, i) => `CAST(c${i} AS ${c.type})`).join(', ');
  // allow_quoted_nulls off: "" is an empty text, as a service writing CSV with DuckDB's COPY sends it
  const result = await connection.run(
    `INSERT INTO ${quoteName(tableName)} SELECT ${casts} FROM read_csv([${files.map(sqlString).join(', ')}], header = true, auto_detect = false,
      delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, columns = {${raw}})`,
  );
  if (result.rowsChanged !== expectedRows) throw new MiscountedPages(`The pages of rows ${rowsNamed} held ${result.rowsChanged} rows.`);
}
