import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUNE_TYPES, I128_MIN, PAST_128_BITS, TYPES_SQL, U128_MAX } from '../dune-typed-sql.ts';
import { startHarness, type Harness } from '../service-harness.ts';

// The embedded service's results as the hosted service sends them: DuneSQL's type names, bytes as
// `0x` hex, big integers with every digit, in JSON, CSV and the Parquet pages the app downloads.

let h: Harness;
let executionId: string;

beforeAll(async () => {
  h = await startHarness();
  executionId = (await h.post('/api/v1/sql/execute', { sql: TYPES_SQL })).body.execution_id;
  const status = await h.waitUntilFinished(executionId);
  expect(status.state, JSON.stringify(status.error)).toBe('QUERY_STATE_COMPLETED');
});
afterAll(() => h?.stop());

const fetchResult = (path: string, accept = '*/*') =>
  fetch(`${h.service.baseUrl}/api/v1/execution/${executionId}/${path}`, { headers: { 'x-dune-api-key': h.key, accept } });

describe("the embedded service's results, as Dune sends them", () => {
  it("names the columns' types in DuneSQL, on the status and on every results page", async () => {
    const status = await h.get(`/api/v1/execution/${executionId}/status`);
    expect(status.body.result_metadata.column_types).toEqual(DUNE_TYPES);
    const page = await h.get(`/api/v1/execution/${executionId}/results?limit=1&offset=1`);
    expect(page.body.result.metadata.column_types).toEqual(DUNE_TYPES);
    const some = await h.get(`/api/v1/execution/${executionId}/results?columns=s,b`);
    expect(some.body.result.metadata.column_types).toEqual(['row(to varbinary, amount uint256, "a b" varchar)', 'varbinary']);
  });

  it('sends JSON rows with bytes as 0x hex, at any depth, and every digit of big integers', async () => {
    const text = await (await fetchResult('results')).text();
    const rows = text.slice(text.indexOf('"rows":') + 7, text.indexOf(',"metadata"'));
    expect(rows).toBe(
      '[{"b":"0xdeadbeef","printable":"0x616200",' +
        `"u":"${U128_MAX}","h":"${I128_MIN}","bn":"${PAST_128_BITS}","ub":"18446744073709551615",` +
        '"tz":"2024-01-02 01:04:05.678 UTC","ts":"2024-01-02 03:04:05.678 UTC","d":"12345678901234567890.123456789012345678",' +
        `"l":[1,null,3],"s":{"to":"0x01ab","amount":${U128_MAX},"a b":"x"},"m":{"k":["0xff"]},"j":{"a":[1,2.5,"x"],"b":null},"ls":[{"to":"0x01"},null]},` +
        '{"b":null,"printable":null,"u":null,"h":null,"bn":null,"ub":null,"tz":null,"ts":null,"d":null,"l":null,"s":null,"m":null,"j":null,"ls":null}]',
    );
  });

  it('writes the same text in CSV', async () => {
    expect(await (await fetchResult('results/csv')).text()).toBe(
      'b,printable,u,h,bn,ub,tz,ts,d,l,s,m,j,ls\n' +
        `0xdeadbeef,0x616200,${U128_MAX},${I128_MIN},${PAST_128_BITS},18446744073709551615,` +
        '2024-01-02 01:04:05.678 UTC,2024-01-02 03:04:05.678 UTC,12345678901234567890.123456789012345678,' +
        `"[1,null,3]","{""to"":""0x01ab"",""amount"":${U128_MAX},""a b"":""x""}","{""k"":[""0xff""]}","{""a"":[1,2.5,""x""],""b"":null}","[{""to"":""0x01""},null]"\n` +
        ',,,,,,,,,,,,,\n',
    );
  });

  it('carries as text in a Parquet page what Parquet cannot hold exactly: bytes as their hex, integers past 64 bits', async () => {
    const response = await fetchResult('results/csv', 'application/vnd.apache.parquet');
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    const file = join(h.dataDir, 'types.parquet');
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const client = await (await DuckDBInstance.create(':memory:')).connect();
    const read = await client.runAndReadAll(`SELECT c0, c1, c2, c3, c4, c5, c10, c11 FROM read_parquet('${file}')`);
    expect(read.columnTypes().map(String)).toEqual([
      'VARCHAR',
      'VARCHAR',
      'VARCHAR',
      'VARCHAR',
      'VARCHAR',
      'UBIGINT',
      'VARCHAR',
      'VARCHAR',
    ]);
    expect(read.getRowsJS()).toEqual([
      [
        '0xdeadbeef',
        '0x616200',
        U128_MAX,
        I128_MIN,
        PAST_128_BITS,
        18446744073709551615n,
        `{"to":"0x01ab","amount":${U128_MAX},"a b":"x"}`,
        '{"k":["0xff"]}',
      ],
      [null, null, null, null, null, null, null, null],
    ]);
  });

  it('writes bytes as hex in unions and under struct fields of any name, and keeps a null VARIANT empty in CSV', async () => {
    const sql =
      `select {'x"y': '\\x01'::BLOB, 'it''s': [NULL::BLOB]} as "s""q", map {'\\xAB'::BLOB: [{'b': ''::BLOB}]} as m, ` +
      `union_value(b := '\\x02'::BLOB)::UNION(n INTEGER, b BLOB) as u, NULL::VARIANT as v`;
    const id = (await h.post('/api/v1/sql/execute', { sql })).body.execution_id;
    const status = await h.waitUntilFinished(id);
    expect(status.state, JSON.stringify(status.error)).toBe('QUERY_STATE_COMPLETED');
    expect(status.result_metadata.column_types).toEqual([
      'row("x""y" varbinary, "it\'s" array(varbinary))',
      'map(varbinary, array(row(b varbinary)))',
      'json',
      'json',
    ]);
    const { body } = await h.get(`/api/v1/execution/${id}/results`);
    expect(body.result.rows).toEqual([
      { 's"q': { 'x"y': '0x01', "it's": [null] }, m: { '0xab': [{ b: '0x' }] }, u: { b: '0x02' }, v: null },
    ]);
    const csv = await fetch(`${h.service.baseUrl}/api/v1/execution/${id}/results/csv`, { headers: { 'x-dune-api-key': h.key } });
    expect(await csv.text()).toBe(
      '"s""q",m,u,v\n"{""x\\""y"":""0x01"",""it\'s"":[null]}","{""0xab"":[{""b"":""0x""}]}","{""b"":""0x02""}",\n',
    );
  });

  it("lists a created table's columns by the upload types they were made with", async () => {
    const schema = [
      { name: 'holder', type: 'varbinary' },
      { name: 'amount', type: 'uint256' },
      { name: 'delta', type: 'int256' },
      { name: 'at', type: 'timestamp' },
    ];
    const created = await h.post('/api/v1/table/create', { namespace: 'demo', table_name: 'typed', schema });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const listed = await h.get('/api/v1/tables');
    const table = listed.body.tables.find((t: { full_name: string }) => t.full_name === 'dune.demo.typed');
    expect(table.columns.map((c: { name: string; type: string }) => ({ name: c.name, type: c.type }))).toEqual(schema);
  });
});
