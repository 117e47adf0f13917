import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { BoundedCache } from '../bounded-cache.ts';
import type { JsonText } from './json-lines.ts';
import { rowPositionName, type PageQuery } from './page-sql.ts';
import type { Page, PageEncoding } from './page.ts';
import type { ResultReader } from './result-reader.ts';
import { TextBlocks, type MakeBlock } from './text-blocks.ts';

// How results' JSON texts are written, remembered for this many texts.
const REMEMBERED = SERVICE_CACHES.jsonTextShapes;
// Bytes of text of stored results kept in files: the JSON of three million rows of eight columns.
const TEXT_BLOCK_BYTES = 512 * 1024 * 1024;
// Of that text, the bytes also kept in memory, the blocks used last: a third of the JSON of the
// million-row demo result, ten pages of 30,000 rows, more than a reader paging on has written
// ahead for it (four pages) beside the page it reads.
const TEXT_BLOCK_MEMORY_BYTES = SERVICE_CACHES.textBlockBytes;
// A page of up to this many rows is written on its own (JSON by one statement) about as fast as it
// is read from blocks: it does not have blocks written for it, but reads them when they are kept.
const BLOCK_PAGE_ROWS = 2_000;

/**
 * A speed-up over the plain page path (page-sql.ts) for JSON and CSV pages of a result as stored,
 * without filter, sort or sample: their text is written once in blocks of rows (TextBlocks), and
 * a page is then cut from the blocks that hold it. A large page always reads blocks; a short one
 * only when they are kept.
 */
export class BlockPages {
  readonly #reader: ResultReader;
  readonly #blocks = new TextBlocks(TEXT_BLOCK_BYTES, TEXT_BLOCK_MEMORY_BYTES);
  /** How a stored result's JSON text is written, by the text's key (see `page`). */
  readonly #jsonTexts = new BoundedCache<string, Promise<JsonText>>({ entries: REMEMBERED });

  constructor(reader: ResultReader) {
    this.#reader = reader;
  }

  /** The page, from blocks; null when the page is not one to read from blocks. */
  page(executionId: string, query: PageQuery, encoding: PageEncoding): Promise<Page> | null {
    if (encoding === 'parquet' || query.where || query.orderBy || query.samplePercent != null) return null;
    const key = [executionId, encoding, ...query.columns.map((c) => c.name)].join('\u0000');
    const kept = this.#blocks.keptPage(key, encoding, query.storedRows, query.offset, query.limit);
    if (kept || Math.min(query.limit, query.storedRows - query.offset) <= BLOCK_PAGE_ROWS) return kept;
    const reader = this.#reader;
    const row = rowPositionName(query.tableColumns);
    // each block holds the result's table while it is written: one read ahead may outlive its page
    const block: MakeBlock = (from, to, allocate) =>
      reader.withTable(executionId, async (connection, table) => {
        const json =
          encoding === 'json' ? await this.#jsonTextOf(key, () => reader.pages.jsonText(connection, query.columns, table)) : null;
        return reader.pages.block(connection, query.columns, table, row, { from, to, json, allocate });
      });
    return this.#blocks.page(executionId, key, encoding, query.storedRows, query.offset, query.limit, block);
  }

  /** How a JSON text is written, read by `read` once for all its blocks; a failure is not remembered. */
  #jsonTextOf(key: string, read: () => Promise<JsonText>): Promise<JsonText> {
    const known = this.#jsonTexts.get(key);
    if (known) return known;
    const text = read();
    this.#jsonTexts.set(key, text);
    text.catch(() => this.#jsonTexts.delete(key, text));
    return text;
  }

  /** Lets go of the blocks' text kept in memory when no page was read for `idleMillis`. */
  dropIdleTexts(idleMillis: number): void {
    this.#blocks.dropIdleTexts(idleMillis);
  }

  /** Forgets the blocks of a result that is dropped, and how its text is written. */
  forget(executionId: string): void {
    this.#jsonTexts.deleteWhere((_, key) => key.startsWith(`${executionId}\u0000`));
    this.#blocks.forget(executionId);
  }

  /** Removes the text kept in files, as the service stops. */
  close(): Promise<void> {
    return this.#blocks.close();
  }
}
