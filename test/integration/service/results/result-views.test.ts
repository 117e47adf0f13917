import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResultViews } from '../../../../main/service/results/result-views.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';

// Views of stored results in a real DuckDB: made once per key, shared by readers that ask at once,
// never kept after a refusal, and dropped when evicted or when their result goes.

let db: Database;
let views: ResultViews;

beforeEach(async () => {
  db = await Database.open(':memory:');
  views = new ResultViews(db);
});
afterEach(() => db.close());

async function tables(): Promise<string[]> {
  const rows = await db.rows<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables() ORDER BY table_name`);
  return rows.map((row) => row.name);
}

/** A fill that counts its calls and makes a view of `rows` rows. */
function counted(rows: number, columns = 1) {
  const fill = Object.assign(
    async (target: string) => {
      fill.calls++;
      await db.run(`CREATE TABLE ${target} AS SELECT range AS n FROM range(${rows}) ORDER BY range DESC`);
      return rows * columns;
    },
    { calls: 0 },
  );
  return fill;
}

const firstRows = (table: string) => db.rows<{ n: bigint }>(`SELECT n FROM ${table} WHERE rowid < 3 ORDER BY rowid`);

describe('views of a stored result', () => {
  it('are made once for readers asking at once and after, rowid being the position in their order', async () => {
    const fill = counted(10);
    const pages = await Promise.all([1, 2, 3].map(() => views.use('e1', 'k', fill, firstRows)));
    expect(fill.calls).toBe(1);
    expect(pages[2]!.map((row) => row.n)).toEqual([9n, 8n, 7n]);
    await views.use('e1', 'k', fill, firstRows);
    expect(fill.calls).toBe(1);
  });

  it('are dropped once no one has read them for a while, and not while one is read', async () => {
    await views.use('e1', 'idle', counted(5), firstRows);
    let started = () => undefined as void;
    const reading = new Promise<void>((resolve) => (started = resolve));
    let release = () => undefined as void;
    const read = views.use('e1', 'read', counted(5), () => {
      started();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await reading;
    await views.dropIdle(60_000);
    expect(await tables()).toHaveLength(2);
    await views.dropIdle(0);
    expect(await tables()).toHaveLength(1);
    release();
    await read;
    await views.dropIdle(0);
    expect(await tables()).toEqual([]);
  });

  it('are worth making when asked for a second time, or while kept', async () => {
    expect(views.worthMaking('k')).toBe(false);
    expect(views.worthMaking('other')).toBe(false);
    expect(views.worthMaking('k')).toBe(true);
    await views.use('e1', 'k', counted(3), firstRows);
    expect(views.worthMaking('k')).toBe(true);
    expect(views.worthMaking('other')).toBe(true);
    expect(views.worthMaking('other')).toBe(false);
  });

  it('say whether a view is made, not while it is made', async () => {
    let filled = () => undefined as void;
    const filling = new Promise<void>((resolve) => (filled = resolve));
    const fill = async (target: string) => {
      await filling;
      return counted(4)(target);
    };
    const read = views.use('e1', 'k', fill, firstRows);
    expect(views.isMade('k')).toBe(false);
    filled();
    await read;
    expect(views.isMade('k')).toBe(true);
    expect(views.isMade('other')).toBe(false);
  });

  it('of two sets on one DuckDB have tables of their own, each within its own budget', async () => {
    const others = new ResultViews(db, undefined, { cells: 4, views: 1 });
    await views.use('e1', 'k', counted(3), firstRows);
    await others.use('e1', 'k', counted(4), firstRows);
    await others.use('e1', 'k2', counted(2), firstRows);
    expect(await tables()).toHaveLength(2);
    expect(views.isMade('k')).toBe(true);
    expect(others.isMade('k')).toBe(false);
    expect((await views.use('e1', 'k', counted(3), firstRows)).map((row) => row.n)).toEqual([2n, 1n, 0n]);
  });

  it('keeps nothing after a refused fill, so the next reader gets the same error again', async () => {
    const refused = async (target: string) => {
      await db.run(`CREATE TABLE ${target} AS SELECT 'abc'::INTEGER AS n`);
      return 1;
    };
    await expect(views.use('e1', 'k', refused, firstRows)).rejects.toThrow(/Conversion Error/);
    const fill = counted(5);
    await views.use('e1', 'k', fill, firstRows);
    expect(fill.calls).toBe(1);
  });

  it('drops the least recently used past their budget of cells, never the one being read', async () => {
    // each view is 3,000,000 cells: the budget of 8,000,000 keeps two
    const fills = ['a', 'b', 'c'].map(() => counted(1000, 3000));
    for (const [i, key] of ['a', 'b', 'c'].entries()) await views.use('e1', key, fills[i]!, firstRows);
    await views.use('e1', 'b', fills[1]!, firstRows);
    expect(await tables()).toHaveLength(2);
    await views.use('e1', 'a', fills[0]!, firstRows);
    expect(fills.map((fill) => fill.calls)).toEqual([2, 1, 1]);
    // a view larger than the whole budget is still made and read
    const huge = counted(10, 1_000_000);
    expect((await views.use('e1', 'huge', huge, firstRows)).map((row) => row.n)).toEqual([9n, 8n, 7n]);
    expect(await tables()).toHaveLength(1);
  });

  it('go with their result, after the last reader of one is done', async () => {
    let unblock = () => {};
    const reading = views.use('e1', 'k', counted(10), async (table) => {
      await new Promise<void>((resolve) => (unblock = resolve));
      return firstRows(table);
    });
    await views.use('e2', 'other', counted(4), firstRows);
    while ((await tables()).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await views.dropAll('e1');
    expect(await tables()).toHaveLength(2);
    unblock();
    expect((await reading).map((row) => row.n)).toEqual([9n, 8n, 7n]);
    expect(await tables()).toHaveLength(1);
    const again = counted(10);
    await views.use('e1', 'k', again, firstRows);
    expect(again.calls).toBe(1);
  });
});
