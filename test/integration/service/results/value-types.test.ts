import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../service-harness.ts';

let h: Harness;
let executionId: string;

const SQL = `SELECT
  42::TINYINT AS tiny, 9007199254740991::BIGINT AS safe_big, 9007199254740993::BIGINT AS unsafe_big,
  -170141183460469231731687303715884105727::HUGEINT AS huge, 18446744073709551615::UBIGINT AS ubig,
  12345678901234567890::DECIMAL(38,0) AS dec0, 1.25::DECIMAL(10,2) AS dec2, 2.5::FLOAT AS f,
  'nan'::DOUBLE AS not_a_number, 'infinity'::DOUBLE AS inf, true AS yes, NULL::INTEGER AS nothing,
  'say "hi", then
leave' AS text, DATE '2024-02-29' AS d, TIMESTAMP '2024-01-02 03:04:05.678912' AS ts,
  TIMESTAMPTZ '2024-01-02 03:04:05.5+02:00' AS tstz, 'infinity'::TIMESTAMP AS ts_inf,
  [1, 2, NULL] AS list, {'a': 1, 'b': 'x'} AS struct, 'a'::ENUM('a', 'b') AS e`;

beforeAll(async () => {
  h = await startHarness();
  const created = await h.post('/api/v1/query', { name: 'types', query_sql: SQL });
  executionId = await h.execute(created.body.query_id);
  expect((await h.waitUntilFinished(executionId)).state).toBe('QUERY_STATE_COMPLETED');
});
afterAll(() => h.stop());

describe('cell values', () => {
  it('keeps JSON types, with exact integers only as numbers and UTC timestamps', async () => {
    const { body } = await h.get(`/api/v1/execution/${executionId}/results`);
    expect(body.result.rows).toEqual([
      {
        tiny: 42,
        safe_big: 9007199254740991,
        unsafe_big: '9007199254740993',
        huge: '-170141183460469231731687303715884105727',
        ubig: '18446744073709551615',
        dec0: '12345678901234567890',
        dec2: 1.25,
        f: 2.5,
        not_a_number: 'NaN',
        inf: 'Infinity',
        yes: true,
        nothing: null,
        text: 'say "hi", then\nleave',
        d: '2024-02-29',
        ts: '2024-01-02 03:04:05.678 UTC',
        tstz: '2024-01-02 01:04:05.500 UTC',
        ts_inf: 'infinity',
        list: [1, 2, null],
        struct: { a: 1, b: 'x' },
        e: 'a',
      },
    ]);
    expect(body.result.metadata.column_types).toEqual([
      'tinyint',
      'bigint',
      'bigint',
      'int256',
      'decimal(20,0)',
      'decimal(38,0)',
      'decimal(10,2)',
      'real',
      'double',
      'double',
      'boolean',
      'integer',
      'varchar',
      'date',
      'timestamp(3)',
      'timestamp(3) with time zone',
      'timestamp(3)',
      'array(integer)',
      'row(a integer, b varchar)',
      'varchar',
    ]);
  });

  it('writes the same values as CSV fields, quoted where needed', async () => {
    const response = await fetch(`${h.service.baseUrl}/api/v1/execution/${executionId}/results/csv`, {
      headers: { 'x-dune-api-key': h.key },
    });
    const text = await response.text();
    expect(text).toBe(
      'tiny,safe_big,unsafe_big,huge,ubig,dec0,dec2,f,not_a_number,inf,yes,nothing,text,d,ts,tstz,ts_inf,list,struct,e\n' +
        '42,9007199254740991,9007199254740993,-170141183460469231731687303715884105727,18446744073709551615,' +
        '12345678901234567890,1.25,2.5,NaN,Infinity,true,,"say ""hi"", then\nleave",2024-02-29,2024-01-02 03:04:05.678 UTC,' +
        '2024-01-02 01:04:05.500 UTC,infinity,"[1,2,null]","{""a"":1,""b"":""x""}",a\n',
    );
  });
});

/** A query's rows from its JSON page (which must be JSON), and its CSV page. */
async function answers(sql: string): Promise<{ rows: unknown; csv: string }> {
  const created = await h.post('/api/v1/query', { name: 'answers', query_sql: sql });
  const id = await h.execute(created.body.query_id, {});
  const status = await h.waitUntilFinished(id);
  expect(status.state, JSON.stringify(status.error)).toBe('QUERY_STATE_COMPLETED');
  const { body } = await h.get(`/api/v1/execution/${id}/results`);
  const csv = await fetch(`${h.service.baseUrl}/api/v1/execution/${id}/results/csv`, { headers: { 'x-dune-api-key': h.key } });
  return { rows: body.result.rows as unknown, csv: await csv.text() };
}

describe("Dune's floats", () => {
  it('writes a real as its shortest text, not the double of its float, in JSON and CSV', async () => {
    const { rows, csv } = await answers(
      'SELECT * FROM (VALUES (1, 0.1::FLOAT), (2, 3.4028235e38::FLOAT), (3, 1e-7::FLOAT)) AS t(i, r) ORDER BY i',
    );
    expect(rows).toEqual([
      { i: 1, r: 0.1 },
      { i: 2, r: 3.4028235e38 },
      { i: 3, r: 1e-7 },
    ]);
    expect(csv).toBe('i,r\n1,0.1\n2,3.4028235e+38\n3,1e-07\n');
  });

  it('writes a double that is no number as Trino does, a real too, in JSON and CSV', async () => {
    const { rows, csv } = await answers(
      "SELECT * FROM (VALUES (1, 'nan'::DOUBLE, 'nan'::FLOAT), (2, 'inf'::DOUBLE, 'inf'::FLOAT), (3, '-inf'::DOUBLE, '-inf'::FLOAT), " +
        '(4, 0.5::DOUBLE, 0.5::FLOAT)) AS t(i, d, r) ORDER BY i',
    );
    expect(rows).toEqual([
      { i: 1, d: 'NaN', r: 'NaN' },
      { i: 2, d: 'Infinity', r: 'Infinity' },
      { i: 3, d: '-Infinity', r: '-Infinity' },
      { i: 4, d: 0.5, r: 0.5 },
    ]);
    expect(csv).toBe('i,d,r\n1,NaN,NaN\n2,Infinity,Infinity\n3,-Infinity,-Infinity\n4,0.5,0.5\n');
  });
});

describe('exact values in JSON', () => {
  it('answers integers and decimals no JSON number can hold as their exact text, and the rest as numbers', async () => {
    const h2 = await startHarness();
    try {
      const sql =
        "SELECT '340282366920938463463374607431768211455'::UHUGEINT AS u, 7::UHUGEINT AS small_u, " +
        "'12345678901234567890123456789.123456789'::DECIMAL(38,9) AS d, 0.10::DECIMAL(10,2) AS cents, " +
        "'123456789012345678901234567890123456789012345'::BIGNUM AS big, 12::BIGNUM AS small_big";
      const created = await h2.post('/api/v1/query', { name: 'exact', query_sql: sql });
      const id = await h2.execute(created.body.query_id, {});
      expect((await h2.waitUntilFinished(id)).state).toBe('QUERY_STATE_COMPLETED');
      const { status, body } = await h2.get(`/api/v1/execution/${id}/results`);
      expect(status).toBe(200);
      expect(body.result.rows).toEqual([
        {
          u: '340282366920938463463374607431768211455',
          small_u: 7,
          d: '12345678901234567890123456789.123456789',
          cents: 0.1,
          big: '123456789012345678901234567890123456789012345',
          small_big: 12,
        },
      ]);
    } finally {
      await h2.stop();
    }
  });
});

describe('VARIANT results', () => {
  it("are stored, and answered as Dune's json: their JSON values in JSON, their JSON text in CSV", async () => {
    const sql =
      "SELECT 1::VARIANT AS n, {'a': 1, 'b': [1.5, NULL]}::VARIANT AS obj, [1, 2]::VARIANT AS list, " +
      "'say \"hi\"'::VARIANT AS text, NULL::VARIANT AS nothing, DATE '2024-01-01'::VARIANT AS d";
    const created = await h.post('/api/v1/query', { name: 'variant', query_sql: sql });
    const id = await h.execute(created.body.query_id, {});
    const status = await h.waitUntilFinished(id);
    expect(status.state, JSON.stringify(status.error)).toBe('QUERY_STATE_COMPLETED');
    const { body } = await h.get(`/api/v1/execution/${id}/results`);
    expect(body.result.rows).toEqual([
      { n: 1, obj: { a: 1, b: [1.5, null] }, list: [1, 2], text: 'say "hi"', nothing: null, d: '2024-01-01' },
    ]);
    expect(body.result.metadata.column_types).toEqual(Array(6).fill('json'));
    const csv = await fetch(`${h.service.baseUrl}/api/v1/execution/${id}/results/csv`, { headers: { 'x-dune-api-key': h.key } });
    expect(await csv.text()).toBe(
      'n,obj,list,text,nothing,d\n1,"{""a"":1,""b"":[1.5,null]}","[1,2]","""say \\""hi\\""""",,"""2024-01-01"""\n',
    );
  });
});

describe('floats inside nested values', () => {
  it('are written as at the top, at any depth: JSON pages stay JSON, CSV cells hold the same JSON', async () => {
    const sql =
      "SELECT [1.5, 'nan'::DOUBLE, 'inf'::DOUBLE, NULL]::DOUBLE[] AS list, {'a': 'nan'::DOUBLE, 'b': 0.1::FLOAT, 'c': NULL::DOUBLE} AS struct, " +
      "[{'x': '-inf'::DOUBLE}, NULL] AS structs, MAP {'k': 'nan'::DOUBLE, 'n': NULL} AS map, [0.1::FLOAT, NULL] AS reals, " +
      "MAP {'nan'::FLOAT: 1, 0.1::FLOAT: 2} AS keys, [0.5::DOUBLE, 'inf'::DOUBLE]::DOUBLE[2] AS fixed, union_value(d := '-inf'::DOUBLE) AS u, " +
      'NULL::DOUBLE[] AS nothing, [[1, 2]] AS ints';
    const { rows, csv } = await answers(sql);
    expect(rows).toEqual([
      {
        list: [1.5, 'NaN', 'Infinity', null],
        struct: { a: 'NaN', b: 0.1, c: null },
        structs: [{ x: '-Infinity' }, null],
        map: { k: 'NaN', n: null },
        reals: [0.1, null],
        keys: { NaN: 1, '0.1': 2 },
        fixed: [0.5, 'Infinity'],
        u: { d: '-Infinity' },
        nothing: null,
        ints: [[1, 2]],
      },
    ]);
    expect(csv).toBe(
      'list,struct,structs,map,reals,keys,fixed,u,nothing,ints\n' +
        '"[1.5,""NaN"",""Infinity"",null]","{""a"":""NaN"",""b"":0.1,""c"":null}","[{""x"":""-Infinity""},null]",' +
        '"{""k"":""NaN"",""n"":null}","[0.1,null]","{""NaN"":1,""0.1"":2}","[0.5,""Infinity""]","{""d"":""-Infinity""}",,"[[1,2]]"\n',
    );
  });
});
