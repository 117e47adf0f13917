import { rm } from 'node:fs/promises';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { BoundedCache } from '../bounded-cache.ts';
import type { Page, PageEncoding } from './page.ts';
import { readBytes, SpareMemory } from './spare-memory.ts';

/** A block's rows as written in a file: JSON lines, or CSV lines without a header. */
export interface BlockText {
  file: string;
  /** Where each row starts in the file, and last, its length. */
  starts: Uint32Array;
  /** Each row's bytes (the service's measure), for JSON; CSV pages do not report bytes. */
  sizes: Uint32Array | null;
  /**
   * The file's text in memory, read as the block was made, while it is among the most recently
   * used (see TextBlocks): JSON rows each followed by a comma, or CSV lines. Null once dropped.
   */
  body: Buffer | null;
}

/** Writes rows `from` to `to` of the table (fewer at its end) into a new file, its text read into memory from `allocate`. */
export type MakeBlock = (from: number, to: number, allocate: (size: number) => Buffer) => Promise<BlockText>;

interface Block {
  owner: string;
  /** Null while it is made. */
  text: BlockText | null;
  made: Promise<BlockText>;
  users: number;
  /** Pages of its text in memory being sent, or about to be. */
  sending: number;
  /** Its text in memory, dropped while pages of it were sent: spare once the last is. */
  spare: Buffer | null;
  /** Forgotten or evicted while in use: its last user removes its file. */
  gone: boolean;
}

// Rows per block: a 30,000-row page spans two or three, made at once on as many connections, as
// DuckDB writes a range of rows on one thread. Each row costs 8 bytes of memory while its block is kept.
export const BLOCK_ROWS = 16_384;
const COMMA = 0x2c;
// Pages written ahead of a reader paging on. One kept a core idle at times; with the text of pages
// sent from memory, four kept both busy more of the time than two, and six did no better than
// four (the first reads' figures are in bench/RESULTS.md).
const READ_AHEAD_PAGES = 4;
// Text dropped from memory and kept to hold the next blocks' text (see SpareMemory): a reader
// paging on has a block dropped for each one made.
const SPARE_BYTES = SERVICE_CACHES.spareTextBytes;

/**
 * Large pages of stored results, read from text that DuckDB wrote once. A stored result never
 * changes, so its rows are written as JSON or CSV in blocks of rows the first time a page needs
 * them, kept in files (least recently used first out, within a budget of bytes), and a page is then
 * read from those files, far faster than writing it. Where each row starts is
 * kept in memory, and the text of the blocks used last too, within a smaller budget: a reader
 * paging on reads the blocks just written for it, and its pages are then parts of that text, sent
 * as they are, not read back and copied (so much less memory to allocate and collect).
 */
export class TextBlocks {
  readonly #spare = new SpareMemory(SPARE_BYTES);
  /** Blocks by key, sized by their files' bytes (nothing while they are made). */
  readonly #files: BoundedCache<string, Block>;
  /** The blocks whose text is kept in memory too, sized by that memory. */
  readonly #texts: BoundedCache<string, Block>;
  /** When a page was last read (performance.now()). */
  #usedAt = 0;

  /** Bytes of the blocks' files kept, and of their text kept in memory besides. */
  constructor(budgetBytes: number, memoryBudgetBytes: number) {
    this.#files = new BoundedCache({ size: budgetBytes, removed: (block, key) => this.#remove(key, block) });
    this.#texts = new BoundedCache({ size: memoryBudgetBytes, removed: (block) => this.#dropText(block) });
  }

  /** The bytes of the block files kept. */
  get bytes(): number {
    return this.#files.size;
  }

  /** The bytes of memory that block text kept in memory holds. */
  get memoryBytes(): number {
    return this.#texts.size;
  }

  /**
   * Rows `offset` to `offset + limit` (of `rows` in all) of the text named by `key` (a table, its
   * format and columns), which belongs to `owner` (its execution); blocks are made by `make` where missing.
   */
  async page(
    owner: string,
    key: string,
    encoding: PageEncoding,
    rows: number,
    offset: number,
    limit: number,
    make: MakeBlock,
  ): Promise<Page> {
    const end = Math.min(rows, offset + limit);
    if (end <= offset) return { body: [], rowCount: 0, bytes: 0 };
    this.#usedAt = performance.now();
    const used = this.#indexes(offset, end).map((i) => this.#use(owner, `${key}\u0000${i}`, i, make));
    const sent = this.#sending(used);
    try {
      const texts = await Promise.all(used.map((block) => block.made));
      // a reader paging on asks for the next rows next: READ_AHEAD_PAGES pages' worth are written
      // while this page is sent, unless the result was dropped meanwhile
      const ahead = used.some((block) => block.gone) ? [] : this.#indexes(end, Math.min(rows, end + READ_AHEAD_PAGES * limit));
      for (const i of ahead) this.#release(this.#use(owner, `${key}\u0000${i}`, i, make));
      return { ...(await read(texts, encoding, offset, end)), sent };
    } catch (error) {
      sent();
      throw error;
    } finally {
      for (const block of used) this.#release(block);
    }
  }

  /** The page, as `page` gives it, when all its blocks are written and kept; else null, and nothing is written. */
  keptPage(key: string, encoding: PageEncoding, rows: number, offset: number, limit: number): Promise<Page> | null {
    const end = Math.min(rows, offset + limit);
    const keys = this.#indexes(offset, end).map((i) => `${key}\u0000${i}`);
    const blocks = keys.map((k) => this.#files.peek(k));
    if (end <= offset || !blocks.every((block) => block?.text)) return null;
    const used = keys.map((k, i) => this.#addUser(k, blocks[i]!));
    const sent = this.#sending(used);
    this.#usedAt = performance.now();
    return read(
      used.map((block) => block.text!),
      encoding,
      offset,
      end,
    )
      .then(
        (page) => ({ ...page, sent }),
        (error: unknown) => {
          sent();
          throw error;
        },
      )
      .finally(() => {
        for (const block of used) this.#release(block);
      });
  }

  /** Lets go of the text kept in memory, and the spare memory, when no page was read for `idleMillis`; the blocks' files stay. */
  dropIdleTexts(idleMillis: number): void {
    if (performance.now() - this.#usedAt < idleMillis) return;
    this.#texts.clear();
    this.#spare.clear();
  }

  /** Forgets the blocks of an owner whose result is dropped; files in use go with their last user. */
  forget(owner: string): void {
    this.#files.deleteWhere((block) => block.owner === owner);
  }

  /** Removes every block's file, as the service stops with no request under way. */
  async close(): Promise<void> {
    const blocks = [...this.#files.entries()].map(([, block]) => block);
    this.#files.clear();
    await Promise.all(blocks.map((block) => removeFile(block)));
  }

  /** The blocks that hold rows `from` to `to`. */
  #indexes(from: number, to: number): number[] {
    const indexes: number[] = [];
    for (let i = Math.floor(from / BLOCK_ROWS); i * BLOCK_ROWS < to; i++) indexes.push(i);
    return indexes;
  }

  #use(owner: string, key: string, index: number, make: MakeBlock): Block {
    return this.#addUser(key, this.#files.get(key) ?? this.#make(owner, key, index, make));
  }

  /** Counts one more user of the block, and makes it the most recently used. */
  #addUser(key: string, block: Block): Block {
    block.users++;
    this.#files.get(key);
    this.#texts.get(key);
    return block;
  }

  #make(owner: string, key: string, index: number, make: MakeBlock): Block {
    const made = make(index * BLOCK_ROWS, (index + 1) * BLOCK_ROWS, (size) => this.#spare.take(size));
    const block: Block = { owner, text: null, made, users: 0, sending: 0, spare: null, gone: false };
    this.#files.set(key, block, 0);
    made.then(
      (text) => {
        if (block.gone) return;
        block.text = text;
        this.#files.resize(key, block, text.starts[text.starts.length - 1]!);
        if (text.body && !block.gone) this.#texts.set(key, block, memoryOf(text.body));
      },
      // the pages that wait for it fail; the next asks again
      () => this.#files.delete(key, block),
    );
    return block;
  }

  /**
   * Counts a page of the blocks' text as being sent until the function answered is called, once
   * the page is sent or never will be: text dropped meanwhile is only spare after that.
   */
  #sending(blocks: Block[]): () => void {
    for (const block of blocks) block.sending++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const block of blocks) {
        if (--block.sending > 0 || !block.spare) continue;
        this.#spare.give(block.spare);
        block.spare = null;
      }
    };
  }

  #release(block: Block): void {
    block.users--;
    if (block.gone && block.users === 0) void removeFile(block);
  }

  /** A block evicted or forgotten: its text leaves memory, and its file goes now or with its last user. */
  #remove(key: string, block: Block): void {
    block.gone = true;
    this.#texts.delete(key, block);
    if (block.users === 0) void removeFile(block);
  }

  /** Lets go of a block's text in memory: pages still being sent keep what they hold of it. */
  #dropText(block: Block): void {
    const body = block.text?.body;
    if (!body) return;
    block.text!.body = null;
    if (block.sending === 0) this.#spare.give(body);
    else block.spare = body;
  }
}

/** The memory a block's text holds: it may be more than the text (see SpareMemory.take). */
function memoryOf(body: Buffer): number {
  return body.buffer.byteLength;
}

function removeFile(block: Block): Promise<void> {
  // a block that failed has no file; one still made is removed when it is
  return block.made.then((text) => rm(text.file, { force: true })).catch(() => undefined);
}

/**
 * Rows `from` to `to` from the blocks that hold them, the first of which starts at a multiple of
 * BLOCK_ROWS: parts of their text in memory where it is kept, else read from their files.
 */
async function read(texts: BlockText[], encoding: PageEncoding, from: number, to: number): Promise<Page> {
  const body: Buffer[] = [];
  let rowCount = 0;
  let bytes = 0;
  for (const [i, text] of texts.entries()) {
    const first = i * BLOCK_ROWS + Math.floor(from / BLOCK_ROWS) * BLOCK_ROWS;
    const rows = text.starts.length - 1;
    const a = Math.min(rows, Math.max(0, from - first));
    const b = Math.min(rows, to - first);
    if (b <= a) continue;
    const [start, end] = [text.starts[a]!, text.starts[b]!];
    body.push(text.body ? text.body.subarray(start, end) : await readPart(text, encoding, a, b));
    for (let row = a; row < b && text.sizes; row++) bytes += text.sizes[row]!;
    rowCount += b - a;
  }
  // JSON rows are joined by commas: the page's last one is not followed by one
  const last = body.length - 1;
  if (encoding === 'json' && last >= 0) body[last] = body[last]!.subarray(0, body[last]!.length - 1);
  return { body, rowCount, bytes };
}

/** Rows `a` to `b` of a block from its file; JSON's line breaks, which end each row, become commas. */
async function readPart(text: BlockText, encoding: PageEncoding, a: number, b: number): Promise<Buffer> {
  const start = text.starts[a]!;
  const part = await readBytes(text.file, (size) => Buffer.allocUnsafe(size), start, text.starts[b]);
  if (encoding === 'json') for (let row = a + 1; row <= b; row++) part[text.starts[row]! - start - 1] = COMMA;
  return part;
}
