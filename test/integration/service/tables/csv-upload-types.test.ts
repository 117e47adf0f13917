import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { runSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// An uploaded CSV's column types are inferred (notes §9) from every value, each kept as written.
// DuckDB's sniffer looked at the first 20,480 rows or so: a later row that did not fit the type it
// chose was rounded (1.5 into BIGINT) or refused the whole file, and a wide integer became a double.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h.stop());

const upload = (table: string, data: string) => h.post('/api/v1/uploads/csv', { table_name: table, data }, withApiKey(KEYS.alice));
const sql = (text: string): Promise<Json> => runSql(h, KEYS.alice, text);
async function columnTypes(table: string): Promise<Record<string, string>> {
  const listed: Json = (await h.get('/api/v1/uploads', withApiKey(KEYS.alice))).body;
  const found = listed.tables.find((t: Json) => t.full_name === `dune.alice.dataset_${table}`);
  return Object.fromEntries(found.columns.map((c: Json) => [c.name, c.type]));
}
// past the rows DuckDB's sniffer samples
const MANY = 30_000;
const wholeRows = Array.from({ length: MANY }, (_, i) => `${i}\n`).join('');

describe('a CSV upload', () => {
  it('keeps every digit of an integer past BIGINT', async () => {
    expect((await upload('wide', 'n,m\n12345678901234567890123,1\n-5,2\n')).status).toBe(200);
    expect(await columnTypes('wide')).toEqual({ n: 'int256', m: 'bigint' });
    expect(await sql('select cast(n as varchar) as n from dune.alice.dataset_wide order by m')).toEqual([
      { n: '12345678901234567890123' },
      { n: '-5' },
    ]);
  });

  it('types a column by its every value, not the first rows', async () => {
    // empty through the first rows, whole numbers after; text from its first row, whole numbers after
    const blanks = Array.from({ length: MANY }, () => ',x\n').join('');
    expect((await upload('late_values', `n,t\n${blanks}5,1\n`)).status).toBe(200);
    expect(await columnTypes('late_values')).toEqual({ n: 'bigint', t: 'varchar' });
    expect(await sql('select n, t from dune.alice.dataset_late_values where n is not null')).toEqual([{ n: 5, t: '1' }]);

    expect((await upload('late_fraction', `n\n${wholeRows}1.5\n`)).status).toBe(200);
    expect(await columnTypes('late_fraction')).toEqual({ n: 'double' });
    expect(await sql('select n from dune.alice.dataset_late_fraction where n > 0 and n < 2')).toEqual([{ n: 1 }, { n: 1.5 }]);

    expect((await upload('late_text', `n\n${wholeRows}abc\n`)).status).toBe(200);
    expect(await columnTypes('late_text')).toEqual({ n: 'varchar' });
    expect(await sql(`select count(*) as rows, count_if(n in ('0', 'abc')) as kept from dune.alice.dataset_late_text`)).toEqual([
      { rows: MANY + 1, kept: 2 },
    ]);
  });

  it('keeps as text what a type would write otherwise, and takes a double only where each value is one exactly', async () => {
    const data =
      'zip,flag,seen,day,x,y\n007,true,2020-01-01T00:00:00+02:00,2020-01-01,0.1,0.1\n123,FALSE,2020-01-02 10:00:00,2020-01-02,2,0.12345678901234567890\n';
    expect((await upload('kinds', data)).status).toBe(200);
    expect(await columnTypes('kinds')).toEqual({
      zip: 'varchar',
      flag: 'boolean',
      seen: 'timestamp',
      day: 'date',
      x: 'double',
      y: 'varchar',
    });
    expect(await sql('select zip, flag, cast(seen as varchar) as seen, x, y from dune.alice.dataset_kinds order by zip')).toEqual([
      { zip: '007', flag: true, seen: '2019-12-31 22:00:00', x: 0.1, y: '0.1' },
      { zip: '123', flag: false, seen: '2020-01-02 10:00:00', x: 2, y: '0.12345678901234567890' },
    ]);
  });
});
