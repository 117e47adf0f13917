// A result of each DuckDB type the embedded service names and writes its own way (see
// dune-results.test.ts), for the service's tests and the cache's.

export const U128_MAX = '340282366920938463463374607431768211455';
export const I128_MIN = '-170141183460469231731687303715884105728';
export const PAST_128_BITS = '-1234567890123456789012345678901234567890123456789';

// one row of values, one of nulls
export const TYPES_SQL = `SELECT
  CASE WHEN i = 1 THEN '\\xDE\\xAD\\xBE\\xEF'::BLOB END AS b,
  CASE WHEN i = 1 THEN 'ab\\x00'::BLOB END AS printable,
  CASE WHEN i = 1 THEN '${U128_MAX}'::UHUGEINT END AS u,
  CASE WHEN i = 1 THEN '${I128_MIN}'::HUGEINT END AS h,
  CASE WHEN i = 1 THEN '${PAST_128_BITS}'::BIGNUM END AS bn,
  CASE WHEN i = 1 THEN 18446744073709551615::UBIGINT END AS ub,
  CASE WHEN i = 1 THEN TIMESTAMPTZ '2024-01-02 03:04:05.678912+02:00' END AS tz,
  CASE WHEN i = 1 THEN TIMESTAMP '2024-01-02 03:04:05.678912' END AS ts,
  CASE WHEN i = 1 THEN '12345678901234567890.123456789012345678'::DECIMAL(38,18) END AS d,
  CASE WHEN i = 1 THEN [1, NULL, 3] END AS l,
  CASE WHEN i = 1 THEN {'to': '\\x01\\xAB'::BLOB, 'amount': '${U128_MAX}'::UHUGEINT, 'a b': 'x'} END AS s,
  CASE WHEN i = 1 THEN MAP {'k': ['\\xFF'::BLOB]} END AS m,
  CASE WHEN i = 1 THEN '{"a": [1, 2.5, "x"], "b": null}'::JSON END AS j,
  CASE WHEN i = 1 THEN [{'to': '\\x01'::BLOB}, NULL] END AS ls
FROM (VALUES (1), (2)) v(i) ORDER BY i`;

export const DUNE_TYPES = [
  'varbinary',
  'varbinary',
  'uint256',
  'int256',
  'int256',
  'decimal(20,0)',
  'timestamp(3) with time zone',
  'timestamp(3)',
  'decimal(38,18)',
  'array(integer)',
  'row(to varbinary, amount uint256, "a b" varchar)',
  'map(varchar, array(varbinary))',
  'json',
  'array(row(to varbinary))',
];
