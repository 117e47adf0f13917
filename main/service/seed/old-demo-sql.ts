// The demo queries' SQL as earlier versions seeded it, by the demo query's name: a `/` of two
// integers there meant a double, as DuckDB's gave one. A data folder seeded with one of these texts
// has it updated to the demo query's current text at start (see update-demo-sql.ts), so its answer
// stays the same now that such a `/` truncates. Never edited: each is matched exactly.

// what the first two select from
const OLD_TRADES = `SELECT
  i AS trade_id,
  TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 517) AS block_time,
  ['ethereum', 'arbitrum', 'optimism', 'base', 'polygon'][1 + i % 5] AS chain,
  ['WETH', 'USDC', 'DAI', 'WBTC', 'LINK', 'UNI'][1 + (i * 7) % 6] AS token,
  '0x' || md5(i::VARCHAR) AS trader,
  ((hash(i) % 100000000) / 1000000)::DECIMAL(18, 6) AS amount,
  round((hash(i * 31) % 5000000) / 100, 2) AS amount_usd,
  i % 3 <> 0 AS is_buy,
  CASE WHEN i % 11 = 0 THEN NULL ELSE ['swap', 'limit order', 'aggregator', 'rfq'][1 + i % 4] END AS route,
  hash(i) AS raw_amount
FROM range(1, 5001) AS t(i)`;

export const OLD_DEMO_SQL: ReadonlyArray<readonly [name: string, sql: string]> = [
  [
    'Demo trades',
    `-- 5,000 synthetic trades, generated on the fly.
${OLD_TRADES}
ORDER BY trade_id`,
  ],
  [
    'Daily volume by chain',
    `-- Daily volume of one chain's trades of at least {{min_usd}} USD.
WITH trades AS (
${OLD_TRADES}
)
SELECT date_trunc('day', block_time) AS day, count(*) AS trades, round(sum(amount_usd), 2) AS volume_usd
FROM trades
WHERE chain = '{{chain}}' AND amount_usd >= {{min_usd}}
GROUP BY 1
ORDER BY 1`,
  ],
  [
    'One million rows',
    `-- 1,000,000 synthetic transfers.
SELECT
  i AS id,
  TIMESTAMP '2023-01-01 00:00:00' + to_seconds(i * 13) AS block_time,
  ['ethereum', 'arbitrum', 'optimism', 'base', 'polygon'][1 + i % 5] AS chain,
  'wallet_' || (i % 50000) AS wallet,
  (hash(i) % 1000000) / 100 AS amount_usd,
  ((i % 1000) / 10)::DECIMAL(10, 2) AS fee,
  i % 2 = 0 AS is_inbound,
  CASE WHEN i % 13 = 0 THEN NULL ELSE i % 97 END AS bucket
FROM range(1000000) AS t(i)
ORDER BY id`,
  ],
];
