import { rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteName, type Column } from '../../filter-language/index.ts';
import { sqlString } from './cache-db.ts';
import type { RowRange } from './page-ranges.ts';

// Loads page files into the staging table in result order, as they arrive in any order, several
// pages to a statement: DuckDB reads the files side by side, and the million-row demo result took
// 1.2 s of CPU loaded a page (30,000 rows) at a time, 0.8 s eight pages at a time and 0.7 s all at
// once. On two cores the service's pages wait for that CPU, so pages are gathered until they
// follow on from the rows loaded for `batchRows` rows, and the rest go in when the fetching ends.

/** Pages that held other rows than their offsets say: the service's doing; the table is as it was before them. */
export class MiscountedPages extends Error {}

export interface PageLoader {
  /** A page file that holds the rows of `range`, header row included. */
  add(range: RowRange, file: string): void;
  /** Resolves once fewer than `count` pages wait, or none of them can be loaded yet; throws when a load failed. */
  drained(count: number): Promise<void>;
  /** Loads every page that follows on from the rows loaded, then answers the rows in the table. */
  finish(): Promise<number>;
}

export interface LoaderOptions {
  connection: DuckDBConnection;
  tableName: string;
  columns: Column[];
  /** The position of the first row to load (the rows before it are in the table already). */
  from: number;
  /** Rows gathered for one statement, while more pages are on their way. */
  batchRows: number;
  /** Pages waiting that are loaded whatever their rows, for the disk they take. */
  maxWaiting: number;
}

export function createPageLoader(options: LoaderOptions): PageLoader {
  const arrived = new Map<number, { end: number; file: string }>();
  let next = options.from;
  let running: Promise<void> | null = null;
  let failure: unknown = null;
  let ending = false;
  const waiters: (() => void)[] = [];

  /** The pages that follow on from the rows loaded, when there are enough of them to load now. */
  function due(): { offsets: number[]; files: string[]; end: number } | null {
    const offsets: number[] = [];
    const files: string[] = [];
    let end = next;
    for (let page = arrived.get(end); page !== undefined; page = arrived.get(end)) {
      offsets.push(end);
      files.push(page.file);
      end = page.end;
    }
    const enough = end - next >= options.batchRows || arrived.size >= options.maxWaiting || ending;
    return files.length > 0 && enough ? { offsets, files, end } : null;
  }

  function kick(): void {
    if (running !== null || failure !== null) return;
    const batch = due();
    if (batch === null) return;
    // the batch's pages no longer wait: the bound on waiting pages is for those not being loaded
    for (const offset of batch.offsets) arrived.delete(offset);
    running = (async () => {
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
      ending = true;
      kick();
      while (running !== null) await running;
      if (failure !== null) throw failure;
      return next;
    },
  };
}

/** Loads the files whole or not at all: the rows in the table stay those a download can go on from. */
async function loadFiles({ connection, tableName, columns }: LoaderOptions, files: string[], expectedRows: number, rowsNamed: string): Promise<void> {
  const raw = columns.map((_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const casts = columns.map((c, i) => `CAST(c${i} AS ${c.type})`).join(', ');
  await connection.run('BEGIN TRANSACTION');
  try {
    // allow_quoted_nulls off: "" is an empty text, as a service writing CSV with DuckDB's COPY sends it
    const result = await connection.run(
      `INSERT INTO ${quoteName(tableName)} SELECT ${casts} FROM read_csv([${files.map(sqlString).join(', ')}], header = true, auto_detect = false,
        delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, columns = {${raw}})`,
    );
    if (result.rowsChanged !== expectedRows) throw new MiscountedPages(`The pages of rows ${rowsNamed} held ${result.rowsChanged} rows.`);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
