import { open, rm } from 'node:fs/promises';
import type { Page, PageFormat } from './page-writer.ts';

/** A block's rows as written in a file: JSON lines, or CSV lines without a header. */
export interface BlockText {
  file: string;
  /** Where each row starts in the file, and last, its length. */
  starts: Uint32Array;
  /** Each row's bytes (the service's measure), for JSON; CSV pages do not report bytes. */
  sizes: Uint32Array | null;
}

/** Writes rows `from` to `to` of the table (fewer at its end) into a new file. */
export type MakeBlock = (from: number, to: number) => Promise<BlockText>;

interface Block {
  owner: string;
  /** Null while it is made. */
  text: BlockText | null;
  made: Promise<BlockText>;
  users: number;
  /** Forgotten or evicted while in use: its last user removes its file. */
  gone: boolean;
}

// Rows per block: a 30,000-row page spans two or three, made at once on as many connections, as
// DuckDB writes a range of rows on one thread. Each row costs 8 bytes of memory while its block is kept.
export const BLOCK_ROWS = 16_384;
const COMMA = 0x2c;

/**
 * Large pages of stored results, read from text that DuckDB wrote once. A stored result never
 * changes, so its rows are written as JSON or CSV in blocks of rows the first time a page needs
 * them, kept in files (least recently used first out, within a budget of bytes), and a page is then
 * read from those files: about a millisecond where writing it took twenty. Only where each row
 * starts is kept in memory.
 */
export class TextBlocks {
  readonly #budget: number;
  /** In the order last used, least recent first. */
  #blocks = new Map<string, Block>();
  #bytes = 0;

  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }

  /** The bytes of the block files kept. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Rows `offset` to `offset + limit` (of `rows` in all) of the text named by `key` (a table, its
   * format and columns), which belongs to `owner` (its execution); blocks are made by `make` where missing.
   */
  async page(owner: string, key: string, format: PageFormat, rows: number, offset: number, limit: number, make: MakeBlock): Promise<Page> {
    const end = Math.min(rows, offset + limit);
    if (end <= offset) return { body: Buffer.alloc(0), rowCount: 0, bytes: 0 };
    const used = this.#indexes(offset, end).map((i) => this.#use(owner, `${key}\u0000${i}`, i, make));
    try {
      const texts = await Promise.all(used.map((block) => block.made));
      // a reader paging on asks for the next rows next: two pages' worth are written while this
      // page is sent (one kept a core idle at times), unless the result was dropped meanwhile
      const ahead = used.some((block) => block.gone) ? [] : this.#indexes(end, Math.min(rows, end + 2 * limit));
      for (const i of ahead) this.#release(this.#use(owner, `${key}\u0000${i}`, i, make));
      return await read(texts, format, offset, end);
    } finally {
      for (const block of used) this.#release(block);
    }
  }

  /** The page, as `page` gives it, when all its blocks are written and kept; else null, and nothing is written. */
  keptPage(key: string, format: PageFormat, rows: number, offset: number, limit: number): Promise<Page> | null {
    const end = Math.min(rows, offset + limit);
    const keys = this.#indexes(offset, end).map((i) => `${key}\u0000${i}`);
    const blocks = keys.map((k) => this.#blocks.get(k));
    if (end <= offset || !blocks.every((block) => block?.text)) return null;
    const used = keys.map((k, i) => this.#hold(k, blocks[i]!));
    return read(used.map((block) => block.text!), format, offset, end).finally(() => {
      for (const block of used) this.#release(block);
    });
  }

  /** Forgets the blocks of an owner whose result is dropped; files in use go with their last user. */
  forget(owner: string): void {
    for (const [key, block] of this.#blocks) {
      if (block.owner !== owner) continue;
      this.#remove(key, block);
    }
  }

  /** Removes every block's file, as the service stops with no request under way. */
  async close(): Promise<void> {
    const blocks = [...this.#blocks.values()];
    this.#blocks.clear();
    this.#bytes = 0;
    await Promise.all(blocks.map((block) => removeFile(block)));
  }

  /** The blocks that hold rows `from` to `to`. */
  #indexes(from: number, to: number): number[] {
    const indexes: number[] = [];
    for (let i = Math.floor(from / BLOCK_ROWS); i * BLOCK_ROWS < to; i++) indexes.push(i);
    return indexes;
  }

  #use(owner: string, key: string, index: number, make: MakeBlock): Block {
    return this.#hold(key, this.#blocks.get(key) ?? this.#make(owner, key, index, make));
  }

  /** Counts one more user of the block, and makes it the most recently used. */
  #hold(key: string, block: Block): Block {
    block.users++;
    this.#blocks.delete(key);
    this.#blocks.set(key, block);
    return block;
  }

  #make(owner: string, key: string, index: number, make: MakeBlock): Block {
    const made = make(index * BLOCK_ROWS, (index + 1) * BLOCK_ROWS);
    const block: Block = { owner, text: null, made, users: 0, gone: false };
    made.then(
      (text) => {
        if (block.gone) return;
        block.text = text;
        this.#bytes += text.starts[text.starts.length - 1]!;
        this.#evict();
      },
      // the pages that wait for it fail; the next asks again
      () => {
        if (this.#blocks.get(key) === block) this.#blocks.delete(key);
      },
    );
    return block;
  }

  #release(block: Block): void {
    block.users--;
    if (block.gone && block.users === 0) void removeFile(block);
    else this.#evict();
  }

  #remove(key: string, block: Block): void {
    this.#blocks.delete(key);
    block.gone = true;
    if (block.text) this.#bytes -= block.text.starts[block.text.starts.length - 1]!;
    if (block.users === 0) void removeFile(block);
  }

  #evict(): void {
    for (const [key, block] of this.#blocks) {
      if (this.#bytes <= this.#budget) return;
      if (block.text && block.users === 0) this.#remove(key, block);
    }
  }
}

function removeFile(block: Block): Promise<void> {
  // a block that failed has no file; one still made is removed when it is
  return block.made.then((text) => rm(text.file, { force: true })).catch(() => undefined);
}

/** Reads rows `from` to `to` from the blocks that hold them, the first of which starts at a multiple of BLOCK_ROWS. */
async function read(texts: BlockText[], format: PageFormat, from: number, to: number): Promise<Page> {
  const slices = texts.map((text, i) => {
    const first = i * BLOCK_ROWS + Math.floor(from / BLOCK_ROWS) * BLOCK_ROWS;
    const rowCount = text.starts.length - 1;
    const a = Math.min(rowCount, Math.max(0, from - first));
    const b = Math.min(rowCount, to - first);
    return { text, a, b };
  });
  const length = slices.reduce((sum, { text, a, b }) => sum + text.starts[b]! - text.starts[a]!, 0);
  const body = Buffer.allocUnsafe(length);
  let at = 0;
  let bytes = 0;
  for (const { text, a, b } of slices) {
    const size = text.starts[b]! - text.starts[a]!;
    if (size === 0) continue;
    const file = await open(text.file);
    try {
      for (let done = 0; done < size; ) {
        const { bytesRead } = await file.read(body, at + done, size - done, text.starts[a]! + done);
        if (bytesRead === 0) throw new Error(`a block file ended after ${done} of ${size} bytes`);
        done += bytesRead;
      }
    } finally {
      await file.close();
    }
    // JSON lines end in a line break, which becomes the comma between the page's rows
    if (format === 'json') for (let row = a; row < b; row++) body[at + text.starts[row + 1]! - text.starts[a]! - 1] = COMMA;
    for (let row = a; row < b && text.sizes; row++) bytes += text.sizes[row]!;
    at += size;
  }
  const rowCount = slices.reduce((sum, { a, b }) => sum + b - a, 0);
  return { body: format === 'json' && length > 0 ? body.subarray(0, length - 1) : body, rowCount, bytes };
}
