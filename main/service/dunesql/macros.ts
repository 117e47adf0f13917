import type { DuckDBInstance } from '@duckdb/node-api';
import { quoteIdentifier as q } from '../../common/sql-quote.ts';

// DuneSQL's types and functions where DuckDB has none or answers otherwise, as DuckDB types and
// macros in the schema executions resolve names in first (`<catalog>.main`): a macro there
// stands in for DuckDB's function of the same name. Where DuckDB's own spelling of a call still
// has to work, the macro keeps it as an overload of its own (`date_add(date, interval)`).
//
// uint256 is DuckDB's UHUGEINT and int256 its HUGEINT: exact, as fast as any integer, and named
// as Dune names them in results; they hold up to 2^128 - 1 (and -2^127), and a value past that
// fails with DuckDB's overflow error, never wraps. DuckDB sums UHUGEINT as a DOUBLE, so `sum`
// of a uint256 is summed as a HUGEINT: exact, as fast as DuckDB's own, and an error past 2^127 - 1
// (a sum through BIGNUM would reach 2^128 - 1, but is many times slower).

const PAST_U128 = 'past 2^128 - 1, the largest uint256 the offline engine holds';

// Trino's concat is null when any argument is (DuckDB's skips nulls); a call with more arguments
// than the overloads take fails rather than answering otherwise
const CONCAT_ARGUMENTS = 12;
function concatOverloads(): string {
  const overloads = Array.from({ length: CONCAT_ARGUMENTS - 1 }, (_, i) => {
    const names = Array.from({ length: i + 2 }, (_, k) => `a${k}`);
    return `(${names.join(', ')}) AS CASE WHEN ${names.map((n) => `${n} IS NULL`).join(' OR ')} THEN NULL ELSE system.main.concat(${names.join(', ')}) END`;
  });
  return `CREATE MACRO concat(a0) AS system.main.concat(a0), ${overloads.join(',\n   ')}`;
}

const STATEMENTS = [
  'CREATE TYPE uint256 AS UHUGEINT',
  'CREATE TYPE int256 AS HUGEINT',

  // varbinary: Dune takes hex with or without 0x, and positions in bytes
  `CREATE MACRO from_hex(s) AS unhex(CASE WHEN s ILIKE '0x%' THEN s[3:] ELSE s END)`,
  'CREATE MACRO varbinary_length(b BLOB) AS octet_length(b), (b) AS length(b)',
  'CREATE MACRO varbinary_substring(b, start) AS b[start:], (b, start, len) AS b[start:start + len - 1]',
  `CREATE MACRO varbinary_ltrim(b) AS unhex(ltrim(hex(b), '0'))`,
  // zero bytes at the end, in whole pairs of hex digits
  `CREATE MACRO varbinary_rtrim(b) AS unhex(regexp_replace(hex(b), '(00)+$', ''))`,
  'CREATE MACRO varbinary_concat(a, b) AS a || b',
  'CREATE MACRO varbinary_starts_with(b, prefix) AS b[1:octet_length(prefix)] = prefix',
  // hex digits without the leading zeros, as the two 64-bit halves of a 128-bit number
  `CREATE MACRO dunesql_u128_hex(h) AS
     (CAST('0x' || lpad(h, 32, '0')[1:16] AS UBIGINT)::UHUGEINT << 64) + CAST('0x' || lpad(h, 32, '0')[17:32] AS UBIGINT)`,
  `CREATE MACRO varbinary_to_uint256(b) AS CASE
     WHEN octet_length(b) > 32 THEN error('varbinary_to_uint256: the varbinary is longer than 32 bytes')
     WHEN length(ltrim(hex(b), '0')) > 32 THEN error('varbinary_to_uint256: the value is ${PAST_U128}')
     ELSE dunesql_u128_hex(ltrim(hex(b), '0')) END`,
  'CREATE MACRO bytearray_to_uint256(b) AS varbinary_to_uint256(b)',
  'CREATE MACRO bytearray_substring(b, start) AS b[start:], (b, start, len) AS b[start:start + len - 1]',
  'CREATE MACRO bytearray_length(b) AS varbinary_length(b)',
  'CREATE MACRO bytearray_ltrim(b) AS varbinary_ltrim(b)',
  'CREATE MACRO from_utf8(b) AS decode(b)',
  'CREATE MACRO to_utf8(s) AS encode(s)',

  // the other unsigned types would take the UHUGEINT overload: they keep DuckDB's sum (a HUGEINT)
  `CREATE MACRO sum(x UHUGEINT) AS system.main.sum(x::HUGEINT)::UHUGEINT,
   (x UBIGINT) AS system.main.sum(x), (x UINTEGER) AS system.main.sum(x),
   (x USMALLINT) AS system.main.sum(x), (x UTINYINT) AS system.main.sum(x),
   (x) AS system.main.sum(x)`,
  // what a sum with DISTINCT, FILTER, ORDER BY or OVER sums (see rewrite.ts)
  'CREATE MACRO dunesql_exact_sum_input(x UHUGEINT) AS x::HUGEINT, (x) AS x',
  'CREATE MACRO approx_distinct(x) AS approx_count_distinct(x), (x, e) AS approx_count_distinct(x)',
  'CREATE MACRO approx_percentile(x, p) AS approx_quantile(x, p)',

  // numbers and text
  'CREATE MACRO is_nan(x) AS isnan(x)',
  `CREATE MACRO nan() AS CAST('NaN' AS DOUBLE)`,
  `CREATE MACRO infinity() AS CAST('Infinity' AS DOUBLE)`,
  'CREATE MACRO truncate(x) AS trunc(x)',
  'CREATE MACRO regexp_like(s, pattern) AS regexp_matches(s, pattern)',
  'CREATE MACRO levenshtein_distance(a, b) AS levenshtein(a, b)',
  concatOverloads(),

  // dates: Trino's argument order and its count of whole units between two times
  `CREATE MACRO date_add(t, i) AS system.main.date_add(t, i),
   (unit, n, t DATE) AS CAST(t + n * CAST('1 ' || unit AS INTERVAL) AS DATE),
   (unit, n, t) AS t + n * CAST('1 ' || unit AS INTERVAL)`,
  'CREATE MACRO date_diff(unit, a, b) AS date_sub(unit, a, b)',
  'CREATE MACRO date_trunc(unit, t DATE) AS CAST(system.main.date_trunc(unit, t) AS DATE), (unit, t) AS system.main.date_trunc(unit, t)',
  'CREATE MACRO day_of_week(d) AS isodow(d)',
  'CREATE MACRO dow(d) AS isodow(d)',
  'CREATE MACRO day_of_month(d) AS day(d)',
  'CREATE MACRO day_of_year(d) AS dayofyear(d)',
  'CREATE MACRO doy(d) AS dayofyear(d)',
  'CREATE MACRO year_of_week(d) AS isoyear(d)',
  'CREATE MACRO last_day_of_month(d) AS last_day(d)',
  'CREATE MACRO from_iso8601_timestamp(s) AS CAST(s AS TIMESTAMPTZ)',
  'CREATE MACRO from_unixtime(x) AS to_timestamp(x)',
  'CREATE MACRO to_unixtime(t) AS epoch(t)',

  // arrays, maps and JSON; Trino's sequence of dates steps a day unless told
  `CREATE MACRO sequence(a DATE, b DATE) AS CAST(generate_series(a, b, INTERVAL 1 DAY) AS DATE[]),
   (a, b) AS generate_series(a, b),
   (a DATE, b DATE, step) AS CAST(generate_series(a, b, step) AS DATE[]),
   (a, b, step) AS generate_series(a, b, step)`,
  'CREATE MACRO cardinality(x) AS len(x)',
  'CREATE MACRO slice(a, start, len) AS a[start:start + len - 1]',
  'CREATE MACRO array_join(a, separator) AS array_to_string(a, separator)',
  'CREATE MACRO element_at(c, k) AS c[k]',
  `CREATE MACRO json_extract_scalar(j, p) AS
     CASE WHEN json_type(j, p) IN ('OBJECT', 'ARRAY') THEN NULL ELSE json_extract_string(j, p) END`,
];

/**
 * Creates DuneSQL's types and macros in `catalog`'s main schema (on a connection of its own, as
 * macros that call one another are resolved there), sets Dune's time zone, UTC, and makes `/` of
 * two integers an integer truncated toward zero, as Trino's (DuckDB's gives a double): once per
 * DuckDB that runs user SQL, before its configuration is locked.
 */
export async function createDuneSqlMacros(instance: DuckDBInstance, catalog: string): Promise<void> {
  const connection = await instance.connect();
  try {
    await connection.run(`SET GLOBAL TimeZone = 'UTC'; SET GLOBAL integer_division = true; USE ${q(catalog)}; ${STATEMENTS.join(';\n')}`);
  } finally {
    connection.closeSync();
  }
}
