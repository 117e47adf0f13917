import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { runSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// An insert reads each value into its column's type exactly, or refuses the insert (notes §9:
// "Varbinary is sent as 0x-hex or base64. Timestamps are ISO 8601"). DuckDB's own casts, used
// before, rounded 1.5 into an integer column to 2, read `0xdeadbeef` into bytes as its ASCII,
// dropped a CSV timestamp's offset and a date's time of day, and took a JSON number past 2^64
// through a double.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
  const schema = [
    { name: 'i', type: 'integer' },
    { name: 'b', type: 'bigint' },
    { name: 'u', type: 'uint256' },
    { name: 'v', type: 'varbinary' },
    { name: 'ts', type: 'timestamp' },
    { name: 'd', type: 'date' },
    { name: 'x', type: 'double' },
  ];
  const created = await h.post('/api/v1/uploads', { namespace: 'alice', table_name: 'typed', schema }, withApiKey(KEYS.alice));
  expect(created.status).toBe(200);
});
afterAll(() => h.stop());

const insert = (body: string, type: 'text/csv' | 'application/x-ndjson') =>
  h.post('/api/v1/uploads/alice/typed/insert', undefined, { ...withApiKey(KEYS.alice, { 'content-type': type }), body });
const csv = (body: string) => insert(body, 'text/csv');
const ndjson = (lines: unknown[]) => insert(lines.map((line) => JSON.stringify(line)).join('\n'), 'application/x-ndjson');
const header = 'i,b,u,v,ts,d,x';
const rows = (): Promise<Json> =>
  runSql(
    h,
    KEYS.alice,
    `select i, b, cast(u as varchar) as u, v, cast(ts as varchar) as ts, cast(d as varchar) as d, x from dune.alice.typed order by i`,
  );

describe('an insert into typed columns', () => {
  it('reads bytes as 0x-hex or base64, timestamps with their offset, and numbers without a double', async () => {
    expect(
      (
        await csv(
          `${header}\n1,10,7,0xdeadbeef,2020-01-01T00:00:00+02:00,2020-01-01,0.1\n2,20,8,3q2+7w==,2020-01-01 10:30:00,2020-02-29,2\n`,
        )
      ).status,
    ).toBe(200);
    // a JSON number past 2^64, and past a double's 53 bits
    const wide = '12345678901234567890123';
    const line = `{"i":3,"b":9007199254740993,"u":${wide},"v":"0xCAFE","ts":"2020-01-01T00:00:00Z","d":"2021-12-31","x":1.5}`;
    expect((await insert(line, 'application/x-ndjson')).status).toBe(200);
    expect(await rows()).toEqual([
      { i: 1, b: 10, u: '7', v: '0xdeadbeef', ts: '2019-12-31 22:00:00', d: '2020-01-01', x: 0.1 },
      { i: 2, b: 20, u: '8', v: '0xdeadbeef', ts: '2020-01-01 10:30:00', d: '2020-02-29', x: 2 },
      { i: 3, b: '9007199254740993', u: wide, v: '0xcafe', ts: '2020-01-01 00:00:00', d: '2021-12-31', x: 1.5 },
    ]);
  });

  it('refuses a value its column cannot hold as written, naming the row and the column, and adds nothing', async () => {
    const before = await rows();
    // a row every column of which is fine, but for the values given
    const row = (values: Record<string, unknown>) => ({ i: 4, b: 1, u: 1, v: '0x00', ts: '2020-01-01', d: '2020-01-01', x: 1, ...values });
    const csvRow = (values: Record<string, unknown>) => Object.values(row(values)).join(',');
    const refusals: [() => Promise<{ status: number; body: Json }>, string][] = [
      [
        () => csv(`${header}\n${csvRow({})}\n${csvRow({ i: '1.5' })}\n`),
        "row 2 after the header: column i (integer) cannot hold '1.5': it is not a whole number",
      ],
      [() => ndjson([row({}), row({ b: 2.7 })]), "line 2: column b (bigint) cannot hold '2.7': it is not a whole number"],
      [
        () => csv(`${header}\n${csvRow({ d: '2020-01-01T10:00:00' })}\n`),
        "row 1 after the header: column d (date) cannot hold '2020-01-01T10:00:00': a date has no time of day",
      ],
      [
        () => csv(`${header}\n${csvRow({ v: '0xdeadbee' })}\n`),
        "row 1 after the header: column v (varbinary) cannot hold '0xdeadbee': it is neither 0x-hex nor base64",
      ],
      [
        () => csv(`${header}\n${csvRow({ ts: '01/02/2020' })}\n`),
        "row 1 after the header: column ts (timestamp) cannot hold '01/02/2020': it is not an ISO 8601 timestamp to the microsecond",
      ],
      [
        () => ndjson([row({ x: '0.1000000000000000000001' })]),
        "line 1: column x (double) cannot hold '0.1000000000000000000001': a double cannot hold it exactly",
      ],
      [() => ndjson([row({ i: 3000000000 })]), "line 1: column i (integer) cannot hold '3000000000': it is outside the range of integer"],
      [() => ndjson([row({ u: -1 })]), "line 1: column u (uint256) cannot hold '-1': it is outside the range of uint256"],
      [
        () => ndjson([row({ d: '2020-01-01\n10:00' })]),
        "line 1: column d (date) cannot hold '2020-01-01\\n10:00': it is not a date (YYYY-MM-DD)",
      ],
    ];
    for (const [refused, error] of refusals)
      expect(await refused()).toEqual({ status: 400, body: { error: `nothing was inserted: ${error}` } });
    expect(await rows()).toEqual(before);
  });
});
