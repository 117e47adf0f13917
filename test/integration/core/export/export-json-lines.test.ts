import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareDecimal, readDecimal } from '../../../../main/common/dune-types/index.ts';
import { fileTarget, type ExportDestinations } from '../../../../main/core/export/destination.ts';
import { cellFormat } from '../../../../renderer/src/results/grid/cell-format.ts';
import { fineTimestampsSql, UINT256_MAX } from '../../../dune-shapes/dune-result-sql.ts';
import { startDuneShapes } from '../../../dune-shapes/dune-shapes-proxy.ts';
import { startCacheHarness, type CacheHarness } from '../cache/cache-harness.ts';

// A JSON lines export writes each value with the text the grid shows for it, as a JSON string
// where no JSON number holds it exactly. A Dune-shaped result (Dune's types, its value text),
// cached, then exported.

const ROWS = 4;
const UINT128_MAX = String(2n ** 128n - 1n);
const orNull = (expression: string) => `CASE WHEN i = ${ROWS} THEN NULL ELSE ${expression} END`;
const at = `strftime(TIMESTAMP '2024-01-01 00:08:37' + INTERVAL (i) MINUTE, '%Y-%m-%d %H:%M:%S')`;
const SQL = `SELECT
  i AS "id::bigint",
  ${fineTimestampsSql('2024-01-01 00:08:37', 'MINUTE')},
  ${orNull(`${at} || '.100 UTC'`)} AS "t3::timestamp(3)",
  ${orNull(`${at} || '.100 UTC'`)} AS "z3::timestamp(3) with time zone",
  ${orNull(`'[1.123456789012345678,1.50]'`)} AS "legs::array(decimal(38,18))",
  CASE i WHEN 1 THEN '{"a":1.50,' || chr(10) || '"b":"x"}' WHEN 2 THEN 'no JSON' WHEN 3 THEN '[1e400,12345678901234567890]' END AS "j::json",
  ${orNull(`CASE i % 2 WHEN 1 THEN '98.8' ELSE '-0.5' END`)} AS "price::decimal(10,2)",
  ${orNull(`CASE i % 2 WHEN 1 THEN '0.5' ELSE '-0.05' END`)} AS "x::decimal(18,18)",
  ${orNull(`CASE i % 2 WHEN 1 THEN '1.123456789012345678' ELSE '18.8' END`)} AS "fee::decimal(38,18)",
  ${orNull(`CASE i % 2 WHEN 1 THEN '9007199254740993' ELSE '9007199254740991' END`)} AS "big::bigint",
  ${orNull(`CASE i % 2 WHEN 1 THEN '${UINT256_MAX}' ELSE '7' END`)} AS "amount::uint256",
  ${orNull(`CASE i % 2 WHEN 1 THEN '${UINT128_MAX}' ELSE '8' END`)} AS "raw::uint256",
  ${orNull(`CASE i % 2 WHEN 1 THEN '-9007199254740992' ELSE '-5' END`)} AS "delta::int256",
  ${orNull(`CASE i % 2 WHEN 1 THEN '18446744073709551615' ELSE '3' END`)} AS "n::decimal(20,0)",
  CASE i WHEN 1 THEN '8.0E-5' WHEN 2 THEN '2.0' WHEN 3 THEN '1.0E21' END AS "f::double",
  CASE i WHEN 1 THEN 'Infinity' WHEN 2 THEN '-Infinity' WHEN 3 THEN 'NaN' END AS "w::double",
  ${orNull(`'0.1'`)} AS "r::real",
  ${orNull(`'0xDEADbeef'`)} AS "b::varbinary",
  ${orNull(`'2024-01-02'`)} AS "day::date",
  ${orNull(`CASE i % 2 WHEN 1 THEN 'true' ELSE 'false' END`)} AS "ok::boolean",
  ${orNull(`'a "b" \\c' || chr(10) || chr(9) || 'é'`)} AS "s::varchar"
FROM range(1, ${ROWS + 1}) t(i)
ORDER BY i`;

let harness: CacheHarness;
let executionId: string;
let outDir: string;
const destinations: ExportDestinations = { choose: async (exportId, name) => fileTarget(join(outDir, name), exportId) };

beforeAll(async () => {
  harness = await startCacheHarness({}, { exportDestinations: destinations }, startDuneShapes);
  outDir = harness.dir;
  executionId = await harness.runSql(SQL);
  expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', rowsLoaded: ROWS });
});
afterAll(async () => harness?.close());

let files = 0;

/** The lines of a JSON lines export of the result's columns `columns`. */
async function exportedLines(columns: string): Promise<string[]> {
  const fileName = `export-${(files += 1)}.jsonl`;
  const started = await harness.call('results:export', {
    accountId: 'local',
    executionId,
    format: 'jsonl',
    fileName,
    scope: 'view',
    columns,
  });
  if (!started.ok) throw new Error(started.error.message);
  expect(await harness.exportEnded(started.data.exportId)).toMatchObject({ state: 'done', error: null });
  return readFileSync(join(outDir, fileName), 'utf8').trimEnd().split('\n');
}

describe('a JSON lines export', () => {
  it("writes a timestamp as the grid shows it, with its type's digits, with a time zone or not", async () => {
    const lines = await exportedLines('t0,t3,z3,t6,z6,t9');
    expect(lines).toEqual([
      '{"t0":"2024-01-01 00:09:37 UTC","t3":"2024-01-01 00:09:37.100 UTC","z3":"2024-01-01 00:09:37.100 UTC","t6":"2024-01-01 00:09:37.123456 UTC","z6":"2024-01-01 00:09:37.000007 UTC","t9":"2024-01-01 00:09:37.123456789 UTC"}',
      '{"t0":"2024-01-01 00:10:37 UTC","t3":"2024-01-01 00:10:37.100 UTC","z3":"2024-01-01 00:10:37.100 UTC","t6":"2024-01-01 00:10:37.123456 UTC","z6":"2024-01-01 00:10:37.000007 UTC","t9":"2024-01-01 00:10:37.123456789 UTC"}',
      '{"t0":"2024-01-01 00:11:37 UTC","t3":"2024-01-01 00:11:37.100 UTC","z3":"2024-01-01 00:11:37.100 UTC","t6":"2024-01-01 00:11:37.123456 UTC","z6":"2024-01-01 00:11:37.000007 UTC","t9":"2024-01-01 00:11:37.123456789 UTC"}',
      '{"t0":"2024-01-01 00:12:37 UTC","t3":null,"z3":null,"t6":"2024-01-01 00:12:37.123456 UTC","z6":"2024-01-01 00:12:37.000007 UTC","t9":"2024-01-01 00:12:37.123456789 UTC"}',
    ]);
  });

  it('keeps a nested value as the JSON the grid shows, every digit as written, on its one line', async () => {
    const lines = await exportedLines('legs,j');
    // the line break in a value is space between its parts, which the grid's cell may keep
    expect(lines[0]).toMatch(/^\{"legs":\[1\.123456789012345678,1\.50\],"j":\{"a":1\.50, ?"b":"x"\}\}$/);
    expect(lines.slice(1)).toEqual([
      '{"legs":[1.123456789012345678,1.50],"j":"no JSON"}',
      '{"legs":[1.123456789012345678,1.50],"j":[1e400,12345678901234567890]}',
      '{"legs":null,"j":null}',
    ]);
  });

  it('writes a decimal with its scale, a number where a double holds its digits, else a string of every one', async () => {
    expect(await exportedLines('price,x,fee')).toEqual([
      '{"price":98.80,"x":0.500000000000000000,"fee":"1.123456789012345678"}',
      '{"price":-0.50,"x":-0.050000000000000000,"fee":18.800000000000000000}',
      '{"price":98.80,"x":0.500000000000000000,"fee":"1.123456789012345678"}',
      '{"price":null,"x":null,"fee":null}',
    ]);
  });

  it('writes an integer past 2^53 as a string of its digits, of every integer type', async () => {
    expect(await exportedLines('big,amount,raw,delta,n')).toEqual([
      `{"big":"9007199254740993","amount":"${UINT256_MAX}","raw":"${UINT128_MAX}","delta":"-9007199254740992","n":"18446744073709551615"}`,
      '{"big":9007199254740991,"amount":7,"raw":8,"delta":-5,"n":3}',
      `{"big":"9007199254740993","amount":"${UINT256_MAX}","raw":"${UINT128_MAX}","delta":"-9007199254740992","n":"18446744073709551615"}`,
      '{"big":null,"amount":null,"raw":null,"delta":null,"n":null}',
    ]);
  });

  it('writes a float as the grid lays it out, one that is no number as Dune writes it', async () => {
    expect(await exportedLines('f,w,r')).toEqual([
      '{"f":0.00008,"w":"Infinity","r":0.1}',
      '{"f":2,"w":"-Infinity","r":0.1}',
      '{"f":1e+21,"w":"NaN","r":0.1}',
      '{"f":null,"w":null,"r":null}',
    ]);
  });

  it('has the text the grid shows for every value, a JSON number only where a double keeps every digit', async () => {
    const page = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: ROWS });
    if (!page.ok) throw new Error(page.error.message);
    const { columns, rows } = page.data;
    const lines = await exportedLines(columns.map((c) => c.name).join(','));
    expect(lines).toHaveLength(ROWS);
    lines.forEach((line, r) => {
      const sources = fieldSources(line);
      expect([...sources.keys()]).toEqual(columns.map((c) => c.name));
      columns.forEach((column, c) => {
        const shown = cellFormat(column.type, { grouping: false })(rows[r]![c]);
        const source = sources.get(column.name);
        const where = `${column.name} in line ${r + 1}`;
        // a nested value is the JSON text it came as, on its one line
        if (source === undefined) return expect(line, where).toContain(`${JSON.stringify(column.name)}:${shown.replace(/\n/g, ' ')}`);
        const value: unknown = JSON.parse(source);
        expect(typeof value === 'string' ? value : source, where).toBe(shown);
        if (typeof value === 'number') expect(compareDecimal(readDecimal(String(value))!, readDecimal(source)!), where).toBe(0);
      });
    });
  });
});

type SourceReviver = (this: object, key: string, value: unknown, context?: { source?: string }) => unknown;

/** Each key of a JSON object's text, with the text of its value where that is no object or array. */
function fieldSources(line: string): Map<string, string | undefined> {
  const holders = new Map<object, Map<string, string | undefined>>();
  const reviver: SourceReviver = function (key, value, context) {
    if (!holders.has(this)) holders.set(this, new Map());
    holders.get(this)!.set(key, context?.source);
    return value;
  };
  return holders.get(JSON.parse(line, reviver as Parameters<typeof JSON.parse>[1]) as object)!;
}
