import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// DuneSQL as analysts write it, run on the embedded service; each answer is Dune's. Values whose
// JSON shape is the result writer's concern (bytes, 128-bit integers) are read as text here.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const run = (sql: string) => executeSql(h, h.key, sql);

async function failure(sql: string): Promise<Json> {
  const status = await run(sql);
  expect(status.state).toBe('QUERY_STATE_FAILED');
  return status.error;
}

describe('varbinary', () => {
  it('reads 0x literals as bytes, with Dune’s varbinary functions', async () => {
    const rows = await run(`SELECT
      lower(to_hex(0xA0b86991c6218b36c1d19d4a2e9eb0ce3606eb48)) AS hex_lower,
      to_hex(0xabcd) AS hex, typeof(0xabcd) AS type,
      0xabcd = from_hex('0xABCD') AS eq_prefixed, from_hex('abcd') = 0xabcd AS eq_plain,
      0xabcd IN (0x01, 0xABCD) AS in_list, 0xabcd IN (0x01) AS not_in,
      varbinary_length(0x000102) AS len,
      to_hex(varbinary_substring(0x0102030405, 2, 3)) AS sub, to_hex(varbinary_substring(0x0102030405, 4)) AS rest,
      to_hex(varbinary_ltrim(0x0000a2b8)) AS trimmed, to_hex(varbinary_rtrim(0xb000a000)) AS rtrimmed,
      to_hex(varbinary_concat(0xab, 0xcd)) AS joined, varbinary_starts_with(0x3d13f874ab, 0x3d13f874) AS starts,
      CAST(varbinary_to_uint256(0x00000000000000000000000000000000000000000000000000000000000003e8) AS varchar) AS u,
      typeof(varbinary_to_uint256(0x03e8)) AS u_type,
      CAST(bytearray_to_uint256(0xffffffffffffffffffffffffffffffff) AS varchar) AS u_max,
      '0xab -- a string' AS text -- 0xzz, a comment`);
    expect(rows).toEqual([
      {
        hex_lower: 'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
        hex: 'ABCD',
        type: 'BLOB',
        eq_prefixed: true,
        eq_plain: true,
        in_list: true,
        not_in: false,
        len: 3,
        sub: '020304',
        rest: '0405',
        trimmed: 'A2B8',
        rtrimmed: 'B000A0',
        joined: 'ABCD',
        starts: true,
        u: '1000',
        u_type: 'UHUGEINT',
        u_max: '340282366920938463463374607431768211455',
        text: '0xab -- a string',
      },
    ]);
  });

  it('filters a column of addresses by a literal in any case', async () => {
    const rows = await run(`WITH t(holder) AS (VALUES (0xd8da6bf26964af9d7eed9e03e53415d37aa96045), (0x01), (NULL))
      SELECT count(*) AS n FROM t WHERE holder = 0xD8DA6BF26964AF9D7EED9E03E53415D37AA96045`);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('refuses a 32-byte value past the offline uint256 range, and more than 32 bytes', async () => {
    const past = await failure('SELECT varbinary_to_uint256(0x0100000000000000000000000000000000)');
    expect(past.message).toContain('varbinary_to_uint256: the value is past 2^128 - 1, the largest uint256 the offline engine holds');
    const long = await failure(`SELECT varbinary_to_uint256(0x${'00'.repeat(33)})`);
    expect(long.message).toContain('varbinary_to_uint256: the varbinary is longer than 32 bytes');
  });
});

describe('uint256 and int256', () => {
  it('casts, compares, adds, subtracts and sums exactly, and divides by pow(10, decimals) into a double', async () => {
    const rows = await run(`SELECT
      CAST(sum(amount) AS varchar) AS total, typeof(sum(amount)) AS total_type,
      count(*) FILTER (WHERE amount > uint256 '1000000000000000000') AS above,
      CAST(sum(amount) FILTER (WHERE amount > uint256 '1000000000000000000') AS varchar) AS sum_above,
      CAST(sum(DISTINCT amount) AS varchar) AS sum_distinct,
      CAST(max(amount) - min(amount) AS varchar) AS spread, CAST(min(amount) + 1 AS varchar) AS plus_one,
      sum(amount / pow(10, 18)) AS scaled, typeof(min(amount) / pow(10, 18)) AS scaled_type,
      CAST(cast(-5 AS int256) - int256 '7' AS varchar) AS signed, typeof(cast(-5 AS int256)) AS signed_type
    FROM (VALUES (uint256 '1000000000000000000'), (CAST('2500000000000000000' AS uint256))) t(amount)`);
    expect(rows).toEqual([
      {
        total: '3500000000000000000',
        total_type: 'UHUGEINT',
        above: 1,
        sum_above: '2500000000000000000',
        sum_distinct: '3500000000000000000',
        spread: '1500000000000000000',
        plus_one: '1000000000000000001',
        scaled: 3.5,
        scaled_type: 'DOUBLE',
        signed: '-12',
        signed_type: 'HUGEINT',
      },
    ]);
  });

  it("keeps DuckDB's own sums of every other type", async () => {
    const rows = await run(`SELECT typeof(sum(hash(i) % 1000)) AS unsigned, typeof(sum(i::UTINYINT)) AS tiny, typeof(sum(NULL)) AS nothing,
      typeof(sum(i)) AS signed, typeof(sum(i::DOUBLE)) AS float, typeof(sum(i::DECIMAL(18, 2))) AS decimal FROM range(3) t(i)`);
    expect(rows).toEqual([
      { unsigned: 'HUGEINT', tiny: 'HUGEINT', nothing: 'HUGEINT', signed: 'HUGEINT', float: 'DOUBLE', decimal: 'DECIMAL(38,2)' },
    ]);
  });

  it('sums up to the largest total it holds, every digit kept', async () => {
    const rows = await run(`SELECT CAST(sum(x) AS varchar) AS total
      FROM (VALUES (uint256 '170141183460469231731687303715884105000'), (uint256 '727')) t(x)`);
    expect(rows).toEqual([{ total: '170141183460469231731687303715884105727' }]);
  });

  it('fails, saying why, on a value past its range: never wraps or rounds', async () => {
    const cast = await failure("SELECT uint256 '340282366920938463463374607431768211456' AS x");
    expect(cast.message).toContain('offline, uint256 holds 0 to 2^128 - 1');
    const sum = await failure(`SELECT sum(x) FROM (VALUES (uint256 '170141183460469231731687303715884105000'), (uint256 '728')) t(x)`);
    expect(sum.message).toMatch(/Overflow in HUGEINT addition.*sums of uint256 -2\^127 to 2\^127 - 1/);
    const negative = await failure("SELECT uint256 '5' - uint256 '7'");
    expect(negative.message).toMatch(/Overflow in subtraction/);
  });
});

describe('division', () => {
  it('truncates a / of two integers toward zero, as Trino does, and keeps a double or decimal one exact', async () => {
    const rows = await run(`SELECT 7/2 AS half, -7/2 AS negative_half, 7 / -2 AS by_negative, typeof(7/2) AS half_type,
      7.0/2 AS decimal_by_int, 7/2.0 AS int_by_decimal, count(*)*100/3 AS percent, typeof(count(*)*100/3) AS percent_type,
      sum(i) / count(*) AS mean_rows, 7::DOUBLE/2 AS double_by_int, 1/4::DOUBLE AS int_by_double, avg(i) / 2 AS avg_halved
    FROM range(2) t(i)`);
    expect(rows).toEqual([
      {
        half: 3,
        negative_half: -3,
        by_negative: -3,
        half_type: 'INTEGER',
        decimal_by_int: 3.5,
        int_by_decimal: 3.5,
        percent: 66,
        percent_type: 'BIGINT',
        mean_rows: 0,
        double_by_int: 3.5,
        int_by_double: 0.25,
        avg_halved: 0.25,
      },
    ]);
  });
});

describe('concat', () => {
  it("is null when any argument is, as Trino's", async () => {
    const rows = await run(`SELECT concat('a', 'b') AS both, concat('a', NULL, 'c') AS with_null, concat('a') AS one,
      concat('1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12') AS twelve, 'a' || NULL AS piped`);
    expect(rows).toEqual([{ both: 'ab', with_null: null, one: 'a', twelve: '123456789101112', piped: null }]);
  });
});

describe("Trino's spellings", () => {
  it('answers dates and times as Trino does', async () => {
    const rows = await run(`SELECT
      CAST(TIMESTAMP '2024-01-01 00:00:00' + interval '7' day AS varchar) AS week_later,
      CAST(date_add('day', 7, DATE '2024-01-01') AS varchar) AS date_added, typeof(date_add('day', 7, DATE '2024-01-01')) AS date_type,
      CAST(date_add('hour', -2, TIMESTAMP '2024-01-01 00:00:00') AS varchar) AS hours_back,
      CAST(date_add(DATE '2024-01-01', INTERVAL 1 DAY) AS varchar) AS duckdb_date_add,
      date_diff('day', TIMESTAMP '2024-01-01 23:00:00', TIMESTAMP '2024-01-03 01:00:00') AS whole_days,
      CAST(from_unixtime(1700000000) AS varchar) AS from_unix, to_unixtime(TIMESTAMP '2024-01-01 00:00:01') AS to_unix,
      date_format(TIMESTAMP '2024-03-05 07:08:09', '%Y-%m-%d %H:%i:%s') AS mysql_pattern,
      format_datetime(TIMESTAMP '2024-03-05 07:08:09', 'yyyy-MM-dd''T''HH:mm') AS java_pattern,
      CAST(date_parse('2024-03-05 07:08', '%Y-%m-%d %H:%i') AS varchar) AS parsed,
      CAST(date_trunc('month', TIMESTAMP '2024-03-05 07:08:09') AS varchar) AS month,
      CAST(date_trunc('month', DATE '2024-03-05') AS varchar) AS month_of_date, typeof(date_trunc('month', DATE '2024-03-05')) AS trunc_type,
      now() > TIMESTAMP '2024-01-01 00:00:00' AS now_later, current_date > DATE '2024-01-01' AS today_later,
      CAST(CAST('2024-01-02 03:04:05.678' AS timestamp(3)) AS varchar) AS ts3,
      day_of_week(DATE '2024-01-07') AS sunday, day_of_year(DATE '2024-02-01') AS doy, year_of_week(DATE '2024-12-30') AS week_year,
      CAST(last_day_of_month(DATE '2024-02-07') AS varchar) AS last_day,
      CAST(from_iso8601_timestamp('2024-01-01T02:00:00+02:00') AS varchar) AS iso`);
    expect(rows).toEqual([
      {
        week_later: '2024-01-08 00:00:00',
        date_added: '2024-01-08',
        date_type: 'DATE',
        hours_back: '2023-12-31 22:00:00',
        duckdb_date_add: '2024-01-02 00:00:00',
        whole_days: 1,
        from_unix: '2023-11-14 22:13:20+00',
        to_unix: 1704067201,
        mysql_pattern: '2024-03-05 07:08:09',
        java_pattern: '2024-03-05T07:08',
        parsed: '2024-03-05 07:08:00',
        month: '2024-03-01 00:00:00',
        month_of_date: '2024-03-01',
        trunc_type: 'DATE',
        now_later: true,
        today_later: true,
        ts3: '2024-01-02 03:04:05.678',
        sunday: 7,
        doy: 32,
        week_year: 2025,
        last_day: '2024-02-29',
        iso: '2024-01-01 00:00:00+00',
      },
    ]);
  });

  it('answers arrays, JSON, casts and approximate aggregates as Trino does', async () => {
    const rows = await run(`SELECT
      cardinality(ARRAY[1, 2, 3]) AS n, element_at(ARRAY[10, 20, 30], -1) AS last, contains(ARRAY[1, 2], 2) AS has,
      json_extract_scalar('{"a": {"b": "x"}}', '$.a.b') AS scalar, json_extract_scalar('{"a": {"b": "x"}}', '$.a') AS not_scalar,
      try_cast('x' AS integer) AS bad_cast, slice(ARRAY[1, 2, 3, 4], 2, 2) AS sliced, array_join(ARRAY[1, 2], '-') AS joined,
      is_nan(nan()) AS nan, infinity() > 1e308 AS infinite, regexp_like('0xabc', '^0x') AS like_hex, levenshtein_distance('kitten', 'sitting') AS edits, sequence(1, 7, 3) AS numbers,
      CAST(sequence(DATE '2024-01-30', DATE '2024-02-01') AS varchar) AS days,
      CAST(sequence(DATE '2024-01-01', DATE '2024-03-01', interval '1' month) AS varchar) AS months,
      (SELECT approx_distinct(x) FROM (VALUES (1), (2), (2), (3)) t(x)) AS distinct_values,
      (SELECT approx_distinct(x) FILTER (WHERE x > 1) FROM (VALUES (1), (2), (2), (3)) t(x)) AS distinct_above_one,
      (SELECT approx_percentile(x, 0.5) FROM (VALUES (1), (2), (3)) t(x)) AS median`);
    expect(rows).toEqual([
      {
        n: 3,
        last: 30,
        has: true,
        scalar: 'x',
        not_scalar: null,
        bad_cast: null,
        sliced: [2, 3],
        joined: '1-2',
        nan: true,
        infinite: true,
        like_hex: true,
        edits: 3,
        numbers: [1, 4, 7],
        days: '[2024-01-30, 2024-01-31, 2024-02-01]',
        months: '[2024-01-01, 2024-02-01, 2024-03-01]',
        distinct_values: 3,
        distinct_above_one: 2,
        median: 2,
      },
    ]);
  });
});

describe('parameters', () => {
  it('puts a varbinary value in unquoted, as on Dune, and a date-time inside its quotes', async () => {
    const sql = `SELECT count(*) AS n
FROM (VALUES (0xd8da6bf26964af9d7eed9e03e53415d37aa96045, TIMESTAMP '2024-02-01 00:00:00'), (0x01, TIMESTAMP '2024-03-01 00:00:00')) t(holder, block_time)
WHERE holder = {{holder}} AND block_time < timestamp '{{before}}'`;
    const created = await h.post('/api/v1/query', {
      name: 'holder',
      query_sql: sql,
      parameters: [
        { key: 'holder', type: 'text', value: '0x01' },
        { key: 'before', type: 'datetime', value: '2024-12-31 00:00:00' },
      ],
    });
    const id = await h.execute(created.body.query_id, {
      query_parameters: { holder: '0xD8DA6BF26964AF9D7EED9E03E53415D37AA96045', before: '2024-02-15 00:00:00' },
    });
    expect((await h.waitUntilFinished(id)).state).toBe('QUERY_STATE_COMPLETED');
    expect((await h.get(`/api/v1/execution/${id}/results`, withApiKey(h.key))).body.result.rows).toEqual([{ n: 1 }]);
  });
});

describe('what the offline engine cannot run', () => {
  it('names the construct and its line and column, and runs nothing', async () => {
    const error = await failure('SELECT\n  cardinality(approx_set(x)) AS n\nFROM (VALUES (1)) t(x)');
    expect(error).toEqual({
      type: 'FAILED_TYPE_EXECUTION_FAILED',
      message: 'line 2:15: `approx_set` is not available offline',
      metadata: { line: 2, column: 15 },
    });
  });

  it("locates DuckDB's errors in the SQL as written, before the rewrite", async () => {
    const error = await failure('SELECT 0xabcdef AS a, 0x01 AS b,\n  0x02 AS c, no_such_column');
    expect(error.message).toMatch(/^line 2:14: .*no_such_column/);
    expect(error.metadata).toEqual({ line: 2, column: 14 });
  });
});
