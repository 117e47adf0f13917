import type { BoundSql } from '../../filter-language/index.ts';
import { InFlight } from '../in-flight.ts';
import { BlockPages } from './block-pages.ts';
import { firstSortedPage, readsFirstSorted } from './first-sorted-page.ts';
import { assertWindow, plainPage, type PageQuery } from './page-sql.ts';
import type { Page, PageEncoding } from './page.ts';
import { RememberedTotals } from './remembered-totals.ts';
import type { ResultFiles } from './result-files.ts';
import { ResultReader } from './result-reader.ts';
import { createResultWriter, measureRows, type ResultWriter } from './result-writer.ts';
import type { ResultColumn, StoredSize } from './row-bytes.ts';
import { countBySizes } from './row-sizes.ts';
import { SortViews } from './sort-views.ts';
import { ViewPages } from './view-pages.ts';

export type { Page, PageEncoding } from './page.ts';
export type { PageQuery } from './page-sql.ts';
export type { ResultWriter } from './result-writer.ts';
export type { StoredSize } from './row-bytes.ts';

/**
 * Stored results: one file per execution, written once, then read page by page with SQL. A page
 * is one SELECT over the result's table (page-sql.ts, the plain path). Two optional layers make
 * some pages faster, and each gives the same bytes as the plain path or declines:
 * - ViewPages (view-pages.ts): a filter or sort read again, from a view made once;
 * - BlockPages (block-pages.ts): large JSON and CSV pages of the rows as stored, from text blocks.
 * Filtered totals are remembered (remembered-totals.ts). Clients asking for the same filtered or
 * sorted page at once (the first page of a filter shared with a room) share one read of it.
 */
export class ResultStore {
  readonly #files: ResultFiles;
  readonly #reader: ResultReader;
  readonly #views: ViewPages;
  readonly #blocks: BlockPages;
  readonly #sortViews: SortViews;
  readonly #totals = new RememberedTotals();
  readonly #pagesInFlight = new InFlight<Page>();
  readonly #firstPagesInFlight = new InFlight<[StoredSize, Page]>();

  /** `pagesDir`: where DuckDB writes pages, each read back and removed at once, and the blocks of text kept. */
  constructor(files: ResultFiles, pagesDir: string) {
    this.#files = files;
    this.#reader = new ResultReader(files, pagesDir);
    this.#views = new ViewPages(this.#reader);
    this.#blocks = new BlockPages(this.#reader);
    this.#sortViews = new SortViews(this.#reader);
  }

  createWriter(executionId: string, columns: ResultColumn[]): Promise<ResultWriter> {
    return createResultWriter(this.#files, executionId, columns);
  }

  async page(executionId: string, query: PageQuery, encoding: PageEncoding): Promise<Page> {
    assertWindow(query);
    // a sample is drawn anew for each request; a page of the rows as stored may be a body in memory
    // sent under a count of its readers (Page.sent), and it is quick to read without a filter
    if ((!query.where && !query.orderBy) || query.samplePercent != null) return this.#read(executionId, query, encoding);
    return this.#pagesInFlight.run(pageKey(executionId, query, encoding), () => this.#read(executionId, query, encoding));
  }

  /**
   * A filtered page and the rows and bytes its filter lets through. The first sorted page of a
   * filter nobody asked before is read with its count: from the view of its sort when one is kept
   * (sort-views.ts); else counted from a view of another sort, or by the rows' sizes, beside the
   * plain path's page; else, for a result stored without its rows' sizes, in one pass
   * (first-sorted-page.ts); unless a view of the filter is kept. Clients asking for it at once
   * share that read.
   */
  async filteredPage(executionId: string, query: PageQuery & { where: BoundSql }, encoding: PageEncoding): Promise<[StoredSize, Page]> {
    const known = this.#totals.known(executionId, query.where);
    const apart = () => Promise.all([this.count(executionId, query.tableColumns, query.where), this.page(executionId, query, encoding)]);
    if (known || !readsFirstSorted(query)) return apart();
    return this.#firstPagesInFlight.run(pageKey(executionId, query, encoding), async () => {
      const viewed = this.#views.page(executionId, query, encoding);
      if (viewed) return Promise.all([this.count(executionId, query.tableColumns, query.where), viewed]);
      const [total, page] = await (this.#sortViews.page(executionId, { ...query, orderBy: query.orderBy! }, encoding) ??
        this.#countedApart(executionId, query, encoding) ??
        this.#withoutViews(executionId, query, encoding));
      this.#totals.remember(executionId, query.where, total);
      return [total, page];
    });
  }

  /** The page as the plain path reads it, beside its count from a view of another sort; null without one. */
  #countedApart(executionId: string, query: PageQuery & { where: BoundSql }, encoding: PageEncoding): Promise<[StoredSize, Page]> | null {
    const counted = this.#sortViews.count(executionId, query.tableColumns, query.where);
    if (counted === null) return null;
    return Promise.all([
      counted,
      this.#reader.withTable(executionId, (connection, table) => plainPage(connection, this.#reader.pages, table, query, encoding)),
    ]);
  }

  /** The page beside its count by the rows' sizes; in one pass for a result stored without them. */
  async #withoutViews(executionId: string, query: PageQuery & { where: BoundSql }, encoding: PageEncoding): Promise<[StoredSize, Page]> {
    if (!(await this.#files.sized(executionId))) return firstSortedPage(this.#reader, executionId, query, encoding);
    return Promise.all([this.count(executionId, query.tableColumns, query.where), this.page(executionId, query, encoding)]);
  }

  async #read(executionId: string, query: PageQuery, encoding: PageEncoding): Promise<Page> {
    return await (this.#views.page(executionId, query, encoding) ??
      this.#blocks.page(executionId, query, encoding) ??
      this.#reader.withTable(executionId, (connection, table) => plainPage(connection, this.#reader.pages, table, query, encoding)));
  }

  /**
   * Rows and bytes of the stored rows that pass `where`: from a view of a sort when one is kept,
   * else from the rows and their sizes (row-sizes.ts).
   */
  count(executionId: string, columns: ResultColumn[], where: BoundSql): Promise<StoredSize> {
    return this.#totals.total(
      executionId,
      where,
      () =>
        this.#sortViews.count(executionId, columns, where) ??
        this.#reader.withResult(executionId, (connection, { sql, sizes }) =>
          sizes ? countBySizes(connection, { sql, sizes }, columns, where) : measureRows(connection, sql, columns, where),
        ),
    );
  }

  /**
   * Readies a result just stored for its first reader, who comes as soon as the run is known to have
   * ended (a client downloading it): its file attached for reading, and the readers' DuckDB opened
   * for it if it was closed, which took longer than the page asked for. A result gone meanwhile is
   * nothing to ready.
   */
  async ready(executionId: string): Promise<void> {
    await this.#files.use(executionId, async () => undefined).catch(() => undefined);
  }

  /** The executions whose result tables are stored, complete or not. */
  storedExecutionIds(): Promise<string[]> {
    return Promise.resolve(this.#files.ids());
  }

  async drop(executionId: string): Promise<void> {
    this.#forget(executionId);
    await this.#views.dropAll(executionId);
    await this.#sortViews.dropAll(executionId);
    await this.#files.drop(executionId);
    // a page read as it was dropped may have made a block, or read its columns, since
    this.#forget(executionId);
  }

  /**
   * Gives back the memory of what no one read for `idleMillis`: views of filters and sorts (in the
   * results DuckDB's memory) and the text of blocks kept in memory; they are made again when asked.
   */
  async giveBackIdle(idleMillis: number): Promise<void> {
    this.#blocks.dropIdleTexts(idleMillis);
    await this.#views.dropIdle(idleMillis);
    await this.#sortViews.dropIdle(idleMillis);
  }

  /** Forgets what is remembered of a result: its totals, its text's columns and blocks. */
  #forget(executionId: string): void {
    this.#totals.forget(executionId);
    this.#blocks.forget(executionId);
  }

  /** Removes the text kept in files, as the service stops, once a view being made is. */
  async close(): Promise<void> {
    await this.#sortViews.made();
    await this.#blocks.close();
  }
}

function pageKey(executionId: string, query: PageQuery, encoding: PageEncoding): string {
  const { where, orderBy, offset, limit, columns } = query;
  return JSON.stringify([executionId, encoding, where?.sql, where?.params, orderBy, offset, limit, columns.map((c) => c.name)]);
}
