import { rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { PageFormat } from '../service-client/index.ts';
import { insertPages, type InsertTarget, type PageFile } from './page-inserts.ts';
import type { RowRange } from './page-ranges.ts';

// Loads page files into the staging table in result order, as they arrive in any order: whenever
// no load is running, the pages that follow on from the rows loaded go in together, up to a change
// of format (CSV or Parquet, see page-inserts.ts). So the loads keep up with a link's pace (the
// last one after the last byte is a page or two), and when pages come faster than they load they
// gather and go in several to a statement: a few while pages still come, and all that wait in one
// once the last has come, which DuckDB then loads on every core (see download.ts); that was faster
// than a fixed, larger number of rows to every statement, which could leave the last pages to a
// single thread (the figures are in bench/RESULTS.md).
// Loads share a transaction, committed once enough rows have gone in since the last commit (see
// `durable`) and at the end: DuckDB then writes whole row groups of a load to the file as they
// fill, and a load of one page costs about what it costs in a larger statement, where committing
// each page cost much more (bench/RESULTS.md). Each commit makes the rows before it, and the
// record of where they end, outlast a crash or a kill of the app; so with `durable`, the pages
// waiting once the last has come go in statements of the usual size too, each committed: on a busy
// machine every page of a result can arrive before the second load, and one statement for them all
// would leave nothing committed until the end.

export interface PageLoader {
  /** A page file that holds the rows of `range`: a CSV text with its header row, or a Parquet file. */
  add(range: RowRange, file: string, format: PageFormat): void;
  /** Resolves once fewer than `count` pages wait, or none of them can be loaded yet; throws when a load failed. */
  drained(count: number): Promise<void>;
  /**
   * Loads every page that follows on from the rows loaded (no more will come: without `durable`,
   * those waiting go in one statement, however many rows they hold), commits, and answers the rows in the
   * table. After a failed load, rolls back and throws (FaultyPages when the service sent the pages
   * wrong, see page-inserts.ts): the table then holds the rows of the last commit.
   */
  finish(): Promise<number>;
  /** Stops loading and rolls back: the table holds the rows of the last commit. */
  abandon(): Promise<void>;
}

export interface LoaderOptions extends InsertTarget {
  /** The position of the first row to load (the rows before it are in the table already). */
  from: number;
  /** At most this many rows to a statement while pages still come, so that the loads keep pace with them. */
  batchRows: number;
  /** After each load: rows have gone to the file (see CacheDb.writeBack). */
  onLoaded?: () => void;
  /** Commits after a load once this many rows, or this long, have passed since the last; without it only at the end. */
  durable?: Durable;
}

export interface Durable {
  rows: number;
  millis: number;
  /** Writes, in the transaction about to commit, where the rows in the table end. */
  record: (connection: DuckDBConnection, rows: number) => Promise<void>;
}

export function createPageLoader(options: LoaderOptions): PageLoader {
  return new InOrderLoader(options);
}

interface ArrivedPage {
  end: number;
  file: string;
  format: PageFormat;
}

class InOrderLoader implements PageLoader {
  readonly #options: LoaderOptions;
  readonly #arrived = new Map<number, ArrivedPage>();
  #next: number;
  /** The rows in the table as of the last commit: what a rollback or a crash leaves. */
  #committed: number;
  #committedAt = performance.now();
  #running: Promise<void> | null = null;
  #failure: unknown = null;
  #inTransaction = false;
  #stopped = false;
  #finishing = false;
  readonly #waiters: (() => void)[] = [];

  constructor(options: LoaderOptions) {
    this.#options = options;
    this.#next = options.from;
    this.#committed = options.from;
  }

  add(range: RowRange, file: string, format: PageFormat): void {
    this.#arrived.set(range.offset, { end: range.end, file, format });
    this.#kick();
  }

  async drained(count: number): Promise<void> {
    while (this.#arrived.size >= count && this.#running !== null) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    if (this.#failure !== null) throw this.#failure;
  }

  async finish(): Promise<number> {
    this.#finishing = true;
    await this.#end(true);
    if (this.#failure !== null) throw this.#failure;
    return this.#next;
  }

  async abandon(): Promise<void> {
    this.#stopped = true;
    await this.#end(false);
  }

  /** The pages that follow on from the rows loaded, in one format, up to the rows of one statement. */
  #due(): { format: PageFormat; pages: PageFile[] } | null {
    const next = this.#next;
    const first = this.#arrived.get(next);
    if (first === undefined) return null;
    const pages: PageFile[] = [];
    let end = next;
    const unbounded = this.#finishing && this.#options.durable === undefined;
    for (
      let page = this.#arrived.get(end);
      page?.format === first.format && (pages.length === 0 || unbounded || page.end - next <= this.#options.batchRows);
      page = this.#arrived.get(end)
    ) {
      pages.push({ offset: end, end: page.end, file: page.file });
      end = page.end;
    }
    return { format: first.format, pages };
  }

  /** Starts loading the pages due, unless a load runs already. */
  #kick(): void {
    if (this.#running !== null || this.#failure !== null || this.#stopped) return;
    const batch = this.#due();
    if (batch === null) return;
    // the batch's pages no longer wait: the bound on waiting pages is for those not being loaded
    for (const page of batch.pages) this.#arrived.delete(page.offset);
    this.#running = this.#load(batch.format, batch.pages)
      .catch((error: unknown) => {
        this.#failure = error;
      })
      .finally(() => {
        this.#running = null;
        this.#kick();
        for (const wake of this.#waiters.splice(0)) wake();
      });
  }

  async #load(format: PageFormat, pages: PageFile[]): Promise<void> {
    const { connection, durable } = this.#options;
    if (!this.#inTransaction) await connection.run('BEGIN TRANSACTION');
    this.#inTransaction = true;
    await insertPages(this.#options, format, pages);
    this.#next = pages.at(-1)!.end;
    if (durable && (this.#next - this.#committed >= durable.rows || performance.now() - this.#committedAt >= durable.millis))
      await this.#commit();
    this.#options.onLoaded?.();
    for (const page of pages) rmSync(page.file, { force: true });
  }

  async #commit(): Promise<void> {
    await this.#options.durable?.record(this.#options.connection, this.#next);
    await this.#options.connection.run('COMMIT');
    this.#inTransaction = false;
    this.#committed = this.#next;
    this.#committedAt = performance.now();
  }

  /** Waits for the load under way (and those it starts), then ends the transaction. */
  async #end(keep: boolean): Promise<void> {
    while (this.#running !== null) await this.#running;
    if (!this.#inTransaction) return;
    if (keep && this.#failure === null) {
      await this.#commit();
      return;
    }
    this.#next = this.#committed;
    this.#inTransaction = false;
    await this.#options.connection.run('ROLLBACK').catch(() => undefined);
  }
}
