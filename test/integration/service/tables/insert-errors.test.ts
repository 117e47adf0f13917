import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { runSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// An insert that is refused says what was wrong in the table's terms and on which line, and adds
// nothing. read_json guessed an NDJSON body's keys from its first lines (a key first met on line
// 25,001 was "unknown"), numbered malformed lines one too far, took an empty body or a line that
// is no object for one column `json`, and its errors named DuckDB's types and constraints.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
  const schema = [
    { name: 'a', type: 'integer', nullable: false },
    { name: 's', type: 'varchar' },
  ];
  expect((await h.post('/api/v1/uploads', { namespace: 'alice', table_name: 'pairs', schema }, withApiKey(KEYS.alice))).status).toBe(200);
});
afterAll(() => h.stop());

const insert = (body: string, type: 'text/csv' | 'application/x-ndjson') =>
  h.post('/api/v1/uploads/alice/pairs/insert', undefined, { ...withApiKey(KEYS.alice, { 'content-type': type }), body });
const ndjson = (body: string) => insert(body, 'application/x-ndjson');
const count = async (): Promise<number> => ((await runSql(h, KEYS.alice, 'select count(*) as n from dune.alice.pairs')) as Json)[0].n;

describe('an NDJSON insert', () => {
  it('reads a key first met after many lines', async () => {
    const lines = Array.from({ length: 25_000 }, (_, i) => JSON.stringify({ a: i }));
    const inserted = await ndjson(`${lines.join('\n')}\n{"a":-2,"s":"kept"}\n`);
    expect(inserted.body).toMatchObject({ rows_written: 25_001 });
    expect(await runSql(h, KEYS.alice, 'select s from dune.alice.pairs where a = -2')).toEqual([{ s: 'kept' }]);
  });

  it('is refused with the line that is not one JSON object, counted from 1 and blank lines included', async () => {
    const before = await count();
    const refusals: [string, string][] = [
      ['{"a":1\n{"a":2}\n', 'could not read the NDJSON: line 1 is not valid JSON'],
      ['{"a":1}\n\n{"a":2}\n{"a":\n', 'could not read the NDJSON: line 4 is not valid JSON'],
      ['{"a":1}\r\n[1,2]\r\n', 'could not read the NDJSON: line 2 is not a JSON object'],
      ['{"a":1,"a":2}\n', "could not read the NDJSON: line 1 names the key 'a' twice"],
      ['', 'could not read the NDJSON: the NDJSON holds no JSON object: it needs one object a line'],
      ['\n \n', 'could not read the NDJSON: the NDJSON holds no JSON object: it needs one object a line'],
    ];
    for (const [body, error] of refusals) expect(await ndjson(body), JSON.stringify(body)).toEqual({ status: 400, body: { error } });
    expect(await count()).toBe(before);
  });

  it("names a missing value of a column that may not be null by the table's column and type", async () => {
    const before = await count();
    expect(await ndjson('{"a":1,"s":"x"}\n\n{"s":"y"}\n')).toEqual({
      status: 400,
      body: { error: 'nothing was inserted: line 3: column a (integer) has no value, and may not be null' },
    });
    expect(await count()).toBe(before);
  });
});

describe('a CSV insert', () => {
  it("is refused when empty, or when a value may not be null, in the table's terms", async () => {
    const before = await count();
    expect(await insert('', 'text/csv')).toEqual({
      status: 400,
      body: { error: 'could not read the CSV: the CSV is empty: its first line must name the columns' },
    });
    expect(await insert('a,s\n1,x\n,y\n', 'text/csv')).toEqual({
      status: 400,
      body: { error: 'nothing was inserted: row 2 after the header: column a (integer) has no value, and may not be null' },
    });
    expect(await count()).toBe(before);
  });
});
