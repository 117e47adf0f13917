// SQL for the embedded service whose result, through the Dune-shapes stand-in, is a result as the
// hosted service sends it: varbinary addresses (20 bytes) and hashes (32 bytes) as 0x hex, uint256
// values past 2^128 beside small ones (9 and 10, which text would order wrongly), negative int256,
// timestamp(3) with time zone, array(varchar), row(...), decimal(38,18), and nulls in each.

/** 2^128 + 1, past any 128-bit integer. */
export const PAST_128_BITS = '340282366920938463463374607431768211457';
export const UINT256_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

export function duneResultSql(rows: number): string {
  const orNull = (expression: string) => `CASE WHEN i % 10 = 0 THEN NULL ELSE ${expression} END`;
  return `SELECT
  i AS "id::bigint",
  ${orNull(`'0x' || lpad(printf('%x', i), 40, '0')`)} AS "holder::varbinary",
  ${orNull(`'0x' || lpad(printf('%x', i * 7919), 64, 'ab')`)} AS "tx_hash::varbinary",
  ${orNull(`CASE i % 4 WHEN 1 THEN CAST(i % 11 AS VARCHAR) WHEN 2 THEN CAST(i AS VARCHAR) || '${PAST_128_BITS}' WHEN 3 THEN '${UINT256_MAX}' ELSE CAST(i * 1000 AS VARCHAR) END`)} AS "amount::uint256",
  ${orNull(`'-' || CAST(i AS VARCHAR) || '${PAST_128_BITS}'`)} AS "delta::int256",
  ${orNull(`strftime(TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE + INTERVAL 7 MILLISECOND, '%Y-%m-%d %H:%M:%S.%g UTC')`)} AS "block_time::timestamp(3) with time zone",
  ${orNull(`'["leg ' || CAST(i AS VARCHAR) || '","x"]'`)} AS "legs::array(varchar)",
  ${orNull(`'{"symbol":"T' || CAST(i % 5 AS VARCHAR) || '","raw":${UINT256_MAX}}'`)} AS "token::row(symbol varchar, raw uint256)",
  ${orNull(`CAST(i AS VARCHAR) || '.123456789012345678'`)} AS "price::decimal(38,18)",
  CASE i % 3 WHEN 0 THEN 'ethereum' WHEN 1 THEN 'base' ELSE 'solana' END AS "blockchain::varchar"
FROM range(1, ${rows + 1}) t(i)
ORDER BY i`;
}

/**
 * Columns of timestamps as Dune writes them past the millisecond (and to the second), each `start`
 * plus `i` `step`s: t6 `timestamp(6)`, t9 `timestamp(9)`, z6 `timestamp(6) with time zone` and t0
 * `timestamp(0)`.
 */
export function fineTimestampsSql(start: string, step: 'MINUTE' | 'HOUR'): string {
  const at = `strftime(TIMESTAMP '${start}' + INTERVAL (i) ${step}, '%Y-%m-%d %H:%M:%S')`;
  return [
    `${at} || '.123456 UTC' AS "t6::timestamp(6)"`,
    `${at} || '.123456789 UTC' AS "t9::timestamp(9)"`,
    `${at} || '.000007 UTC' AS "z6::timestamp(6) with time zone"`,
    `${at} || ' UTC' AS "t0::timestamp(0)"`,
  ].join(',\n  ');
}
