import { readdirSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csvRowStarts } from '../../../../main/service/results/csv-rows.ts';
import { PageWriter } from '../../../../main/service/results/page-writer.ts';
import type { PageEncoding } from '../../../../main/service/results/page.ts';
import type { ResultColumn } from '../../../../main/service/results/row-bytes.ts';
import { BLOCK_ROWS, TextBlocks, type MakeBlock } from '../../../../main/service/results/text-blocks.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';
import { openTypedRows, ROWS, type TypedRows } from './typed-rows.ts';

// Large pages of a stored result are read from blocks of text written once; they must be the
// pages DuckDB writes, byte for byte, wherever they start and end among the blocks.

let db: Database;
let connection: DuckDBConnection;
let dir: string;
let writer: PageWriter;
let columns: ResultColumn[];

const blockMaker =
  (format: PageEncoding, made: number[] = []): MakeBlock =>
  async (from, to, allocate) => {
    made.push(from);
    const other = await db.connect();
    try {
      const json = format === 'json' ? await writer.jsonText(other, columns, 't') : null;
      return await writer.block(other, columns, 't', '__row', { from, to, json, allocate });
    } finally {
      db.release(other);
    }
  };

let rows: TypedRows;
beforeAll(async () => {
  rows = await openTypedRows();
  ({ db, connection, columns, dir, writer } = rows);
});
afterEach(() => expect(readdirSync(dir)).toEqual([]));
afterAll(() => rows.close());

describe('pages read from blocks', () => {
  it('are the pages DuckDB writes: text, rows and bytes, across blocks and at the end, from memory or from files', async () => {
    expect(ROWS).toBeGreaterThan(BLOCK_ROWS);
    for (const [format, memory] of [
      ['json', 1024 * 1024 * 1024],
      ['csv', 1024 * 1024 * 1024],
      ['json', 0],
      ['csv', 0],
    ] as const) {
      const blocks = new TextBlocks(1024 * 1024 * 1024, memory);
      const made: number[] = [];
      for (const [offset, limit] of [
        [0, 3_000],
        [BLOCK_ROWS - 1_500, 3_000],
        [2_400, 20_000],
        [BLOCK_ROWS, 5_000],
        [ROWS - 2_500, 3_000],
        [0, ROWS + 10],
      ] as const) {
        const read = await blocks.page('e1', `t-${format}`, format, ROWS, offset, limit, blockMaker(format, made));
        const written = await writer.range(connection, format, columns, 't', '__row', offset, Math.min(limit, ROWS - offset));
        expect(Buffer.concat(read.body).equals(Buffer.concat(written.body)), `${format} ${memory} ${offset}+${limit}`).toBe(true);
        expect([read.rowCount, read.bytes], `${format} ${offset}+${limit}`).toEqual([
          written.rowCount,
          format === 'csv' ? 0 : written.bytes,
        ]);
      }
      // each block was written once, however many pages read it
      expect(made).toEqual([0, BLOCK_ROWS]);
      expect(blocks.memoryBytes > 0).toBe(memory > 0);
      expect(readdirSync(dir)).toHaveLength(2);
      blocks.forget('e1');
      await expect.poll(() => readdirSync(dir)).toEqual([]);
    }
  });

  it("that end where a block ends have the next page's block written while they are sent", async () => {
    const blocks = new TextBlocks(1024 * 1024 * 1024, 1024 * 1024 * 1024);
    const made: number[] = [];
    await blocks.page('e1', 't', 'csv', ROWS, 0, BLOCK_ROWS, blockMaker('csv', made));
    expect(made).toEqual([0, BLOCK_ROWS]);
    const next = await blocks.page('e1', 't', 'csv', ROWS, BLOCK_ROWS, BLOCK_ROWS, blockMaker('csv', made));
    expect([next.rowCount, made]).toEqual([ROWS - BLOCK_ROWS, [0, BLOCK_ROWS]]);
    blocks.forget('e1');
    await expect.poll(() => readdirSync(dir)).toEqual([]);
  });

  it('that are short come from blocks only when those are kept, and never write one', async () => {
    const blocks = new TextBlocks(1024 * 1024 * 1024, 1024 * 1024 * 1024);
    expect(blocks.keptPage('t', 'json', ROWS, 100, 100)).toBeNull();
    await blocks.page('e1', 't', 'json', ROWS, 0, 3_000, blockMaker('json'));
    expect(blocks.keptPage('t', 'json', ROWS, BLOCK_ROWS - 50, 100)).toBeNull();
    const kept = await blocks.keptPage('t', 'json', ROWS, 2_450, 100)!;
    const written = await writer.json(connection, columns, {
      sql: 'SELECT *, rowid AS __row FROM t WHERE rowid >= 2450 AND rowid < 2550',
      params: [],
      orderBy: '__row',
      inOrder: true,
      limit: 100,
    });
    expect(Buffer.concat(kept.body).toString()).toBe(Buffer.concat(written.body).toString());
    expect([kept.rowCount, kept.bytes]).toEqual([100, written.bytes]);
    expect(readdirSync(dir)).toHaveLength(1);
    blocks.forget('e1');
    await expect.poll(() => readdirSync(dir)).toEqual([]);
  });

  it('are empty past the end, without writing a block', async () => {
    const made: number[] = [];
    const page = await new TextBlocks(1024, 1024).page('e1', 't', 'json', ROWS, ROWS, 3_000, blockMaker('json', made));
    expect([Buffer.concat(page.body).length, page.rowCount, made]).toEqual([0, 0, []]);
  });
});

describe('block files', () => {
  it('are kept within the budget, least recently used first out, and the next read writes them again', async () => {
    const measured = new TextBlocks(1024 * 1024 * 1024, 1024 * 1024 * 1024);
    await measured.page('e0', 't', 'json', ROWS, 0, 3_000, blockMaker('json'));
    // the first block is the larger: a budget a little above it keeps one block, not two
    const blocks = new TextBlocks(measured.bytes * 1.2, 0);
    measured.forget('e0');
    const made: number[] = [];
    await blocks.page('e1', 't', 'json', ROWS, 0, 3_000, blockMaker('json', made));
    await blocks.page('e1', 't', 'json', ROWS, BLOCK_ROWS, 3_000, blockMaker('json', made));
    await expect.poll(() => readdirSync(dir)).toHaveLength(1);
    await blocks.page('e1', 't', 'json', ROWS, BLOCK_ROWS + 3_000, 3_000, blockMaker('json', made));
    await blocks.page('e1', 't', 'json', ROWS, 0, 3_000, blockMaker('json', made));
    expect(made).toEqual([0, BLOCK_ROWS, 0]);
    blocks.forget('e1');
    await expect.poll(() => readdirSync(dir)).toEqual([]);
  });

  it('keep the text of the blocks used last in memory, within its budget, and a page from them stays whole', async () => {
    const measured = new TextBlocks(1024 * 1024 * 1024, 1024 * 1024 * 1024);
    await measured.page('e0', 't', 'json', ROWS, 0, 3_000, blockMaker('json'));
    // the first block is the larger: a budget a little above it keeps one block's text, not two
    const one = measured.memoryBytes;
    const blocks = new TextBlocks(1024 * 1024 * 1024, one * 1.2);
    measured.forget('e0');
    const first = await blocks.page('e1', 't', 'json', ROWS, 0, 3_000, blockMaker('json'));
    const kept = blocks.memoryBytes;
    expect(kept).toBe(one);
    // the second block's text takes the place of the first's, whose page was sent as it was
    await blocks.page('e1', 't', 'json', ROWS, BLOCK_ROWS, 3_000, blockMaker('json'));
    expect(blocks.memoryBytes).toBeGreaterThan(0);
    expect(blocks.memoryBytes).toBeLessThanOrEqual(kept * 1.2);
    const again = await blocks.page('e1', 't', 'json', ROWS, 0, 3_000, blockMaker('json'));
    expect(Buffer.concat(again.body).equals(Buffer.concat(first.body))).toBe(true);
    blocks.forget('e1');
    expect(blocks.memoryBytes).toBe(0);
    await expect.poll(() => readdirSync(dir)).toEqual([]);
  });

  it('let go of their text in memory once no page was read for a while, and pages are then read from their files', async () => {
    const blocks = new TextBlocks(1024 * 1024 * 1024, 1024 * 1024 * 1024);
    const first = await blocks.page('e1', 't', 'json', ROWS, 0, 3_000, blockMaker('json'));
    first.sent?.();
    blocks.dropIdleTexts(60_000);
    expect(blocks.memoryBytes).toBeGreaterThan(0);
    blocks.dropIdleTexts(0);
    expect(blocks.memoryBytes).toBe(0);
    const made: number[] = [];
    const again = await blocks.page('e1', 't', 'json', ROWS, 0, 3_000, blockMaker('json', made));
    expect(made).toEqual([]);
    expect(Buffer.concat(again.body).equals(Buffer.concat(first.body))).toBe(true);
    blocks.forget('e1');
    await expect.poll(() => readdirSync(dir)).toEqual([]);
  });

  it("dropped from memory hold the next block's text only once the pages read from them are sent", async () => {
    const measured = new TextBlocks(1024 * 1024 * 1024, 1024 * 1024 * 1024);
    await measured.page('e0', 't', 'json', ROWS, 0, 3_000, blockMaker('json'));
    const blocks = new TextBlocks(1024 * 1024 * 1024, measured.memoryBytes * 1.2);
    measured.forget('e0');
    const first = await blocks.page('e1', 't', 'json', ROWS, 0, 3_000, blockMaker('json'));
    const firstText = Buffer.from(Buffer.concat(first.body));
    const second = await blocks.page('e1', 't', 'json', ROWS, BLOCK_ROWS, 3_000, blockMaker('json'));
    const secondText = Buffer.from(Buffer.concat(second.body));
    // the first block's text left memory as the second's came; another result's block is made
    await blocks.page('e2', 'u', 'json', ROWS, BLOCK_ROWS, 3_000, blockMaker('json'));
    expect(Buffer.concat(first.body).equals(firstText)).toBe(true);
    first.sent!();
    first.sent!();
    // a third result's block is written where the first block's text was: not where the second's is
    await blocks.page('e3', 'w', 'json', ROWS, BLOCK_ROWS, 3_000, blockMaker('json'));
    expect(Buffer.concat(first.body).equals(firstText)).toBe(false);
    expect(Buffer.concat(second.body).equals(secondText)).toBe(true);
    for (const owner of ['e1', 'e2', 'e3']) blocks.forget(owner);
    await expect.poll(() => readdirSync(dir)).toEqual([]);
  });

  it('of a result dropped while a page is read go when that page is read', async () => {
    const blocks = new TextBlocks(1024 * 1024 * 1024, 1024 * 1024 * 1024);
    const reading = blocks.page('e1', 't', 'csv', ROWS, 0, 20_000, blockMaker('csv'));
    blocks.forget('e1');
    expect((await reading).rowCount).toBe(20_000);
    await expect.poll(() => readdirSync(dir)).toEqual([]);
    expect([blocks.bytes, blocks.memoryBytes]).toEqual([0, 0]);
  });

  it('are not left behind when DuckDB fails to write one, and the next read tries again', async () => {
    const blocks = new TextBlocks(1024 * 1024 * 1024, 1024 * 1024 * 1024);
    const broken: MakeBlock = async (from, to, allocate) => {
      const other = await db.connect();
      try {
        // text written as timestamps: DuckDB refuses the statement
        return await writer.block(other, [{ name: 'text', type: 'TIMESTAMP' }], 't', '__row', { from, to, json: null, allocate });
      } finally {
        db.release(other);
      }
    };
    await expect(blocks.page('e1', 't', 'csv', ROWS, 0, 3_000, broken)).rejects.toThrow(/Binder Error: No function matches/);
    expect(readdirSync(dir)).toEqual([]);
    expect((await blocks.page('e1', 't', 'csv', ROWS, 0, 3_000, blockMaker('csv'))).rowCount).toBe(3_000);
    blocks.forget('e1');
    await expect.poll(() => readdirSync(dir)).toEqual([]);
  });
});

describe('CSV rows', () => {
  it('end at line breaks outside quotes only', () => {
    const text = 'a,1\n"two\nlines",2\n"say ""hi""\n",3\n"",\n';
    expect(Array.from(csvRowStarts(Buffer.from(text)))).toEqual([0, 4, 18, 34, 38]);
  });

  it('are refused when the text is cut inside a quote or a row', () => {
    expect(() => csvRowStarts(Buffer.from('a,1\n"open\n'))).toThrow(/quote at byte 4 that is never closed/);
    expect(() => csvRowStarts(Buffer.from('a,1\nb,2'))).toThrow(/ends without a line break after byte 4/);
  });
});
