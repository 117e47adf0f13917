import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';
import type { PageFormat } from '../service-client/index.ts';
import type { CacheDb } from './cache-db.ts';
import { FaultyPages, parquetColumnTypes, type PageFile } from './page-inserts.ts';
import { createPageLoader, type LoaderOptions, type PageLoader } from './page-loader.ts';
import type { RowRange } from './page-ranges.ts';
import { checkCasts, pagesFolder, pagesViewOf, pagesViewSql, removePages, viewCanHold } from './pages-view.ts';

// A new download's pages kept where they lie instead of loaded as they come (see pages-view.ts):
// each Parquet page is moved into the download's pages folder and checked as it comes, and once
// the last has come they become the view of the result's rows. Whatever the view cannot take goes
// the way of a load (page-loader.ts), with every page kept so far: a page the service sent as CSV,
// pages whose columns differ in type, a column named rowid, and a download that ends without its
// last rows (broken off, or the app closing), whose rows are kept in its table for the next to go
// on from. Where the kept pages end is recorded as a load's commits record it, so that a kill
// leaves them to the next start (see resumable-downloads.ts).

/**
 * Pages checked together: a check's statements cost about as much for one page as for several,
 * so pages checked one by one took several times the CPU, which the download's next pages wait for.
 */
const CHECKED_TOGETHER = 4;

export interface KeeperOptions extends LoaderOptions {
  /** The folder the pages are kept in. */
  folder: string;
  /** The result's rows: the view is made only once all of them have come. */
  total: number;
  /** Runs a page's checks on a connection of their own, so that the download never waits for them. */
  checkWith: <T>(work: (connection: DuckDBConnection) => Promise<T>) => Promise<T>;
}

/** A PageLoader whose finish, once every row has come as Parquet, answers the rows and leaves them in the view. */
export interface PageKeeper extends PageLoader {
  /** The name the result's rows are read by once finish has answered: the view, or the table when they were loaded. */
  readonly rowsName: () => string;
}

export function createPageKeeper(options: KeeperOptions): PageKeeper {
  return new Keeper(options);
}

class Keeper implements PageKeeper {
  readonly #options: KeeperOptions;
  readonly #pages = new Map<number, PageFile>();
  #loader: PageLoader | null = null;
  #inView = false;
  /** The position after the rows kept without a gap. */
  #next: number;
  #recorded: number;
  #recordedAt = performance.now();
  #recording: Promise<void> = Promise.resolve();
  #checking: Promise<void> = Promise.resolve();
  /** Pages kept and not checked yet. */
  #unchecked: PageFile[] = [];
  #failure: unknown = null;
  /** The pages' column types, from the first page checked; null until then. */
  #types: string[] | null = null;
  /** False once a page showed that the view cannot hold the rows: they are loaded at the finish. */
  #viewable = true;
  /** Why a page checked cannot be read as the view reads it: thrown at the finish, as a load would throw it. */
  #checkError: unknown = null;

  constructor(options: KeeperOptions) {
    this.#options = options;
    this.#next = options.from;
    this.#recorded = options.from;
  }

  rowsName = (): string => (this.#inView ? pagesViewOf(this.#options.tableName) : this.#options.tableName);

  add(range: RowRange, file: string, format: PageFormat): void {
    if (this.#loader === null && format !== 'parquet') this.#fallBack();
    if (this.#loader !== null) {
      const loader = this.#loader;
      // the connection takes one statement at a time: a record under way first
      void this.#recording.then(() => loader.add(range, file, format));
      return;
    }
    // named by its first row, which a start after a kill reads back (loadKeptPages)
    mkdirSync(this.#options.folder, { recursive: true });
    const kept = join(this.#options.folder, `${range.offset}.page`);
    renameSync(file, kept);
    const page = { ...range, file: kept };
    this.#pages.set(range.offset, page);
    for (let next = this.#pages.get(this.#next); next !== undefined; next = this.#pages.get(this.#next)) this.#next = next.end;
    // checked while the next pages are on the link, not all after the last has come
    this.#unchecked.push(page);
    if (this.#unchecked.length >= CHECKED_TOGETHER || this.#next === this.#options.total) this.#checkWaiting();
    this.#recordWhenDue();
  }

  async drained(count: number): Promise<void> {
    await this.#recording;
    if (this.#loader !== null) return this.#loader.drained(count);
    if (this.#failure !== null) throw this.#failure;
  }

  async finish(): Promise<number> {
    await this.#recording;
    this.#checkWaiting();
    await this.#checking;
    if (this.#loader === null && this.#failure === null && this.#next === this.#options.total && this.#pages.size > 0 && this.#viewable) {
      if (this.#checkError !== null) throw this.#checkError;
      const { connection, columns, tableName } = this.#options;
      const pages = [...this.#pages.values()].sort((a, b) => a.offset - b.offset);
      await connection.run(pagesViewSql(pagesViewOf(tableName), columns, pages, this.#types!));
      this.#inView = true;
      return this.#next;
    }
    this.#fallBack();
    await this.#recording;
    try {
      return await this.#loader!.finish();
    } finally {
      rmSync(this.#options.folder, { recursive: true, force: true });
    }
  }

  async abandon(): Promise<void> {
    await this.#recording;
    await this.#checking;
    await this.#loader?.abandon();
    rmSync(this.#options.folder, { recursive: true, force: true });
  }

  /** Loads every page kept so far, and those to come, into the table, once a record under way is done. */
  #fallBack(): void {
    if (this.#loader !== null) return;
    const loader = createPageLoader(this.#options);
    this.#loader = loader;
    const pages = [...this.#pages.values()];
    this.#pages.clear();
    this.#recording = this.#recording.then(() => {
      for (const page of pages) loader.add(page, page.file, 'parquet');
    });
  }

  #checkWaiting(): void {
    const pages = this.#unchecked.splice(0);
    if (pages.length > 0) this.#checking = this.#checking.then(() => this.#check(pages));
  }

  /**
   * Runs on pages the checks a load runs, so that the view reads them as a load would have loaded
   * them: Parquet with the columns c0 to cN of the first page's types, the rows each page's range
   * says, and every value that a cast could refuse read once (see checkCasts). Pages read together
   * that DuckDB cannot read are checked again one by one, for the error to name the page.
   */
  async #check(pages: PageFile[]): Promise<void> {
    if (this.#loader !== null || !this.#viewable || this.#checkError !== null) return;
    const { columns, tableName, checkWith } = this.#options;
    try {
      await checkWith(async (connection) => {
        const types = await parquetColumnTypes({ connection, tableName, columns }, pages);
        const first = (this.#types ??= types[0]!).join('\n');
        if (!viewCanHold(columns) || types.some((pageTypes) => pageTypes.join('\n') !== first)) {
          this.#viewable = false;
          return;
        }
        await checkRowCounts(connection, pages);
        await checkCasts(connection, columns, pages, this.#types);
      });
    } catch (error) {
      if (error instanceof FaultyPages && pages.length > 1) for (const page of pages) await this.#check([page]);
      else this.#checkError = error;
    }
  }

  #recordWhenDue(): void {
    const durable = this.#options.durable;
    if (durable === undefined || this.#next === this.#recorded) return;
    if (this.#next - this.#recorded < durable.rows && performance.now() - this.#recordedAt < durable.millis) return;
    const rows = this.#next;
    this.#recorded = rows;
    this.#recordedAt = performance.now();
    const { connection } = this.#options;
    this.#recording = this.#recording
      .then(async () => {
        await connection.run('BEGIN TRANSACTION');
        await durable.record(connection, rows);
        await connection.run('COMMIT');
        this.#options.onLoaded?.();
      })
      .catch((error: unknown) => {
        this.#failure ??= error;
      });
  }
}

/** Throws FaultyPages unless each page holds the rows its range says. */
async function checkRowCounts(connection: DuckDBConnection, pages: PageFile[]): Promise<void> {
  const files = pages.map((page) => quoteLiteral(page.file)).join(', ');
  const reader = await connection.runAndReadAll(`SELECT file_name, num_rows FROM parquet_file_metadata([${files}])`);
  const held = new Map(reader.getRows().map(([file, rows]) => [String(file), Number(rows)]));
  for (const page of pages) {
    const rows = held.get(page.file) ?? 0;
    if (rows !== page.end - page.offset) throw new FaultyPages(`The page of rows ${page.offset} to ${page.end} held ${rows} rows.`);
  }
}

/**
 * After a kill: loads into `table` the pages kept for it that follow on from its rows, up to `rows`
 * (where the last record said they end), and removes them; answers the rows the table then holds.
 * The pages are those a new download kept (its table is empty), named by their first row.
 */
export async function loadKeptPages(db: CacheDb, table: string, rows: number): Promise<number> {
  const folder = pagesFolder(db, table);
  if (!existsSync(folder)) return rows;
  try {
    return await db.withConnection(async (connection) => {
      const described = await connection.runAndReadAll(
        'SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index',
        [table],
      );
      const columns = described.getRows().map(([name, type]) => ({ name: String(name), type: String(type) }));
      const held = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoteIdentifier(table)}`)).getRows()[0]![0]);
      const files = readdirSync(folder)
        .filter((name) => /^\d+\.page$/.test(name))
        .map((name) => join(folder, name));
      if (columns.length === 0 || files.length === 0) return held;
      const counted = await connection.runAndReadAll(
        `SELECT file_name, num_rows FROM parquet_file_metadata([${files.map(quoteLiteral).join(', ')}])`,
      );
      const pages = new Map<number, PageFile>();
      for (const [file, count] of counted.getRows()) {
        const offset = Number(basename(String(file)).split('.')[0]);
        pages.set(offset, { offset, end: offset + Number(count), file: String(file) });
      }
      const loader = createPageLoader({ connection, tableName: table, columns, from: held, batchRows: Number.MAX_SAFE_INTEGER });
      for (let page = pages.get(held); page !== undefined && page.end <= rows; page = pages.get(page.end))
        loader.add(page, page.file, 'parquet');
      return await loader.finish();
    });
  } catch {
    // pages that cannot be read are fetched again
    return 0;
  } finally {
    removePages(db, table);
  }
}
