import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RowsText } from '../../../../main/service/results/json-lines.ts';
import { PageWriter } from '../../../../main/service/results/page-writer.ts';
import { ViewTexts } from '../../../../main/service/results/view-texts.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';

// The JSON text of a view, made once for readers that ask at once and kept under a budget; never
// kept for a view dropped meanwhile, and made again for a view made again.

let db: Database;
let texts: ViewTexts;
let writer: PageWriter;
const columns = [
  { name: 'n', type: 'BIGINT' },
  { name: 'label', type: 'VARCHAR' },
];

beforeEach(async () => {
  db = await Database.open(':memory:', [`CREATE TABLE v AS SELECT range AS n, 'row ' || range AS label FROM range(1000)`]);
  texts = new ViewTexts();
  writer = new PageWriter(db, tmpdir());
});
afterEach(() => db.close());

/** Makes the text of `v` and counts the calls. */
function counted() {
  const make = Object.assign(
    async (maxBytes: number): Promise<RowsText | null> => {
      make.calls++;
      const connection = await db.connect();
      try {
        return await writer.text(connection, columns, 'v', '__row', maxBytes);
      } finally {
        db.release(connection);
      }
    },
    { calls: 0 },
  );
  return make;
}

const rowsOf = (body: Buffer[] | undefined) => JSON.parse(`[${Buffer.concat(body ?? []).toString()}]`) as { n: number }[];

describe('texts of views', () => {
  it('are made once for readers that ask at once and after, and give their pages', async () => {
    const make = counted();
    const pages = await Promise.all([0, 10, 990].map((offset) => texts.page('v', 'n,label', 2000, offset, 20, make)));
    expect(make.calls).toBe(1);
    expect(pages.map((page) => rowsOf(page?.body)[0]?.n)).toEqual([0, 10, 990]);
    expect(pages[2]!.rowCount).toBe(10);
    await texts.page('v', 'n,label', 2000, 500, 1, make);
    expect(make.calls).toBe(1);
    // another set of columns is another text
    await texts.page('v', 'n', 2000, 0, 1, make);
    expect(make.calls).toBe(2);
  });

  it('are not made for a view of too many cells, whose pages come from DuckDB', async () => {
    const make = counted();
    expect(await texts.page('v', 'n,label', 3_000_000, 0, 10, make)).toBeNull();
    expect(make.calls).toBe(0);
  });

  it('are not made again for a view whose text would be larger than all texts may be', async () => {
    let calls = 0;
    const tooLarge = async (): Promise<RowsText | null> => {
      calls++;
      return null;
    };
    expect(await texts.page('v', 'n', 2000, 0, 1, tooLarge)).toBeNull();
    expect(await texts.page('v', 'n', 2000, 0, 1, tooLarge)).toBeNull();
    expect(calls).toBe(1);
  });

  it('are forgotten with their view, and not kept when the view went while they were made', async () => {
    const make = counted();
    await texts.page('v', 'n,label', 2000, 0, 1, make);
    texts.forget('v');
    await texts.page('v', 'n,label', 2000, 0, 1, make);
    expect(make.calls).toBe(2);
    const making = texts.page('other', 'n,label', 2000, 0, 1, make);
    texts.forget('other');
    expect((await making)?.rowCount).toBeUndefined();
    await texts.page('other', 'n,label', 2000, 0, 1, make);
    expect(make.calls).toBe(4);
  });

  it('give no page when the text could not be made, and are tried again on the next', async () => {
    let calls = 0;
    const failing = async (): Promise<RowsText> => {
      calls++;
      throw new Error('the view was dropped');
    };
    expect(await texts.page('v', 'n', 2000, 0, 1, failing)).toBeNull();
    expect(await texts.page('v', 'n', 2000, 0, 1, failing)).toBeNull();
    expect(calls).toBe(2);
  });
});
