import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { runSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// A CSV is read as RFC 4180 CSV, split on commas, and its header's names are kept as given or
// refused (notes §9: column names cannot start with a special character or a digit). DuckDB's
// sniffer, left to guess, read a ragged file as one column of raw lines, let an unclosed quote
// pass, split on `;`, and renamed columns (`a,a,A` to a, a_1, A_2; an empty name to column1).

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h.stop());

const upload = (data: string) => h.post('/api/v1/uploads/csv', { table_name: 'sheet', data }, withApiKey(KEYS.alice));
const refusedAs = (error: string) => ({ status: 400, body: { error: `could not read the CSV: ${error}` } });

describe('a CSV upload', () => {
  it("is refused, with the line, when a row does not have the header's columns or a quote is not closed", async () => {
    expect(await upload('a,b\n1,2\n3,4,5\n')).toEqual(
      refusedAs("line 3 of the CSV has 3 values where the header names 2 columns: '3,4,5'"),
    );
    expect(await upload('a,b\n1,2\n3\n')).toEqual(refusedAs("line 3 of the CSV has 1 values where the header names 2 columns: '3'"));
    expect(await upload('a,b\n1,2\n3,"4\n5,6\n')).toEqual(
      refusedAs('line 3 of the CSV has a quoted value whose quote is not closed (or has text after it)'),
    );
  });

  it('is refused when its header cannot name the columns as given', async () => {
    expect(await upload('a,a,A\n1,2,3\n')).toEqual(refusedAs("column name 'a' is given twice (names are the same whatever their case)"));
    expect(await upload('name,Name\n1,2\n')).toEqual(
      refusedAs("column name 'Name' is given twice (names are the same whatever their case)"),
    );
    expect(await upload('a,,c\n1,2,3\n')).toEqual(refusedAs('column 2 of the header has no name'));
    expect(await upload(' a,b\n1,2\n')).toEqual(refusedAs("column name ' a' has spaces around it"));
    expect(await upload('"a,""b""",c\n1,2\n')).toMatchObject({ status: 200 });
  });

  it('is split on commas only, quotes and line breaks inside a value kept', async () => {
    expect((await upload('a;b\n1;2\n')).status).toBe(200);
    expect(await runSql(h, KEYS.alice, 'select * from dune.alice.dataset_sheet')).toEqual([{ 'a;b': '1;2' }]);
    expect((await upload('a,b\r\n"x,\r\ny",""\r\n,2\r\n')).status).toBe(200);
    const rows: Json = await runSql(h, KEYS.alice, 'select a, b from dune.alice.dataset_sheet order by b');
    // a quoted empty value is an empty text, an unquoted one no value
    expect(rows).toEqual([
      { a: 'x,\r\ny', b: '' },
      { a: null, b: '2' },
    ]);
  });
});

describe('a CSV insert', () => {
  it("is refused, with the line, when a row does not have the header's columns", async () => {
    const schema = [
      { name: 'a', type: 'integer' },
      { name: 's', type: 'varchar' },
    ];
    expect((await h.post('/api/v1/uploads', { namespace: 'alice', table_name: 'pairs', schema }, withApiKey(KEYS.alice))).status).toBe(200);
    const insert = (body: string) =>
      h.post('/api/v1/uploads/alice/pairs/insert', undefined, { ...withApiKey(KEYS.alice, { 'content-type': 'text/csv' }), body });
    expect(await insert('a,s\n1,x\n2,y,z\n')).toEqual({
      status: 400,
      body: { error: "could not read the CSV: line 3 of the CSV has 3 values where the header names 2 columns: '2,y,z'" },
    });
    expect(await insert('a,a\n1,2\n')).toEqual({
      status: 400,
      body: { error: "could not read the CSV: column name 'a' is given twice (names are the same whatever their case)" },
    });
    expect(await runSql(h, KEYS.alice, 'select count(*) as n from dune.alice.pairs')).toEqual([{ n: 0 }]);
  });
});
