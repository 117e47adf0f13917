import type { NewQuery } from '../queries/query-store.ts';

// The queries a fresh data directory starts with: what a person sees first in the app, and what
// tests and benchmarks run. The first four generate their data with DuckDB, so they need no
// tables; a `/` of theirs meant to give a double says so (`::DOUBLE`): between two integers it
// truncates, as on Dune. The DuneSQL ones after them read the sample of Dune's tables, and are
// written so that they run unchanged on Dune too (over the sample's three days), in DuneSQL's own
// spelling where it has one (0x literals, approx_distinct), which the service rewrites for DuckDB.

const CHAINS = ['ethereum', 'arbitrum', 'optimism', 'base', 'polygon'];
const chainList = CHAINS.map((c) => `'${c}'`).join(', ');

const TRADES = `SELECT
  i AS trade_id,
  TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 517) AS block_time,
  [${chainList}][1 + i % 5] AS chain,
  ['WETH', 'USDC', 'DAI', 'WBTC', 'LINK', 'UNI'][1 + (i * 7) % 6] AS token,
  '0x' || md5(i::VARCHAR) AS trader,
  ((hash(i) % 100000000)::DOUBLE / 1000000)::DECIMAL(18, 6) AS amount,
  round((hash(i * 31) % 5000000)::DOUBLE / 100, 2) AS amount_usd,
  i % 3 <> 0 AS is_buy,
  CASE WHEN i % 11 = 0 THEN NULL ELSE ['swap', 'limit order', 'aggregator', 'rfq'][1 + i % 4] END AS route,
  hash(i) AS raw_amount
FROM range(1, 5001) AS t(i)`;

export type DemoQuery = Omit<NewQuery, 'ownerId'>;

const SAMPLE_DAYS = `BETWEEN DATE '2024-03-01' AND DATE '2024-03-03'`;

/** DuneSQL over the sample tables; the first is the benchmark's join of transfers with tokens and prices. */
export const DUNE_SAMPLE_QUERIES: DemoQuery[] = [
  {
    name: 'Stablecoin and WETH transfers by day',
    description:
      'DuneSQL: ERC-20 transfers of USDC, USDT and WETH each day, with their USD volume at the price of the minute they moved. Runs on Dune as it is.',
    tags: ['demo', 'dunesql'],
    sql: `-- ERC-20 transfers per day and token, valued at the minute's price.
SELECT date_trunc('day', t.evt_block_time) AS day, tok.symbol, count(*) AS transfers,
  sum(t.value / pow(10, tok.decimals) * p.price) AS volume_usd
FROM erc20_ethereum.evt_Transfer AS t
JOIN tokens.erc20 AS tok ON tok.blockchain = 'ethereum' AND tok.contract_address = t.contract_address
JOIN prices.usd AS p ON p.blockchain = 'ethereum' AND p.contract_address = t.contract_address
  AND p.minute = date_trunc('minute', t.evt_block_time)
WHERE t.evt_block_date ${SAMPLE_DAYS}
  AND t.contract_address IN (0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48, 0xdac17f958d2ee523a2206206994597c13d831ec7, 0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2)
GROUP BY 1, 2
ORDER BY 1, 4 DESC`,
    parameters: [],
    isPrivate: false,
  },
  {
    name: 'DEX volume by project',
    description: 'DuneSQL: trades, USD volume and distinct traders of each DEX on Ethereum, from dex.trades. Runs on Dune as it is.',
    tags: ['demo', 'dunesql'],
    sql: `-- Volume of each DEX and version on Ethereum.
SELECT project, version, count(*) AS trades, sum(amount_usd) AS volume_usd, approx_distinct(taker) AS traders
FROM dex.trades
WHERE blockchain = 'ethereum' AND block_date ${SAMPLE_DAYS}
GROUP BY 1, 2
ORDER BY volume_usd DESC`,
    parameters: [],
    isPrivate: false,
  },
  {
    name: 'Gas and fees by day',
    description:
      'DuneSQL: transactions, average gas price in gwei, fees in ETH and the share that succeeded, per day, from ethereum.transactions. Runs on Dune as it is.',
    tags: ['demo', 'dunesql'],
    sql: `-- Gas price, fees and success rate of Ethereum transactions per day.
SELECT block_date AS day, count(*) AS transactions, avg(gas_price / 1e9) AS avg_gas_price_gwei,
  sum(CAST(gas_used AS double) * gas_price / 1e18) AS fees_eth,
  avg(CASE WHEN success THEN 1.0 ELSE 0.0 END) AS success_rate
FROM ethereum.transactions
WHERE block_date ${SAMPLE_DAYS}
GROUP BY 1
ORDER BY 1`,
    parameters: [],
    isPrivate: false,
  },
  {
    name: 'Labelled traders on DEXes',
    description: 'DuneSQL: the DEX traders with a label in labels.addresses, by USD volume. Runs on Dune as it is.',
    tags: ['demo', 'dunesql'],
    sql: `-- DEX traders that carry a label, by volume.
SELECT l.name, l.category, count(*) AS trades, sum(d.amount_usd) AS volume_usd
FROM dex.trades AS d
JOIN labels.addresses AS l ON l.blockchain = 'ethereum' AND l.address = d.taker
WHERE d.blockchain = 'ethereum' AND d.block_date ${SAMPLE_DAYS}
GROUP BY 1, 2
ORDER BY volume_usd DESC
LIMIT 20`,
    parameters: [],
    isPrivate: false,
  },
];

export const DEMO_QUERIES: DemoQuery[] = [
  {
    name: 'Demo trades',
    description:
      '5,000 synthetic DEX trades across five chains: integers, decimals, text, timestamps, booleans, ' +
      'nulls, and raw amounts too large for a JavaScript number. A good first query to run.',
    tags: ['demo', 'trades'],
    sql: `-- 5,000 synthetic trades, generated on the fly.\n${TRADES}\nORDER BY trade_id`,
    parameters: [],
    isPrivate: false,
  },
  {
    name: 'Daily volume by chain',
    description:
      'Daily trade count and USD volume of one chain, for trades above a minimum size. Pick the chain and the minimum as parameters.',
    tags: ['demo', 'parameters'],
    sql:
      `-- Daily volume of one chain's trades of at least {{min_usd}} USD.\n` +
      `WITH trades AS (\n${TRADES}\n)\n` +
      `SELECT date_trunc('day', block_time) AS day, count(*) AS trades, round(sum(amount_usd), 2) AS volume_usd\n` +
      `FROM trades\nWHERE chain = '{{chain}}' AND amount_usd >= {{min_usd}}\nGROUP BY 1\nORDER BY 1`,
    parameters: [
      { key: 'chain', type: 'enum', value: 'ethereum', enumOptions: CHAINS, isMultiselect: false },
      { key: 'min_usd', type: 'number', value: '1000' },
    ],
    isPrivate: false,
  },
  {
    name: 'Slow checksum',
    description:
      'Deliberately slow: hashes three billion numbers, which takes ten seconds or more. Run it to watch an execution in progress, or to try cancelling one.',
    tags: ['demo', 'slow'],
    sql: `-- Deliberately slow, to watch or cancel a running execution.\nSELECT sum(hash(i) % 1000) AS checksum, count(*) AS numbers\nFROM range(3000000000) AS t(i)`,
    parameters: [],
    isPrivate: false,
  },
  {
    name: 'One million rows',
    description: '1,000,000 rows of 8 columns, for scrolling a large result, filtering and sorting it, and benchmarks.',
    tags: ['demo', 'large'],
    sql: `-- 1,000,000 synthetic transfers.
SELECT
  i AS id,
  TIMESTAMP '2023-01-01 00:00:00' + to_seconds(i * 13) AS block_time,
  [${chainList}][1 + i % 5] AS chain,
  'wallet_' || (i % 50000) AS wallet,
  (hash(i) % 1000000)::DOUBLE / 100 AS amount_usd,
  ((i % 1000)::DOUBLE / 10)::DECIMAL(10, 2) AS fee,
  i % 2 = 0 AS is_inbound,
  CASE WHEN i % 13 = 0 THEN NULL ELSE i % 97 END AS bucket
FROM range(1000000) AS t(i)
ORDER BY id`,
    parameters: [],
    isPrivate: false,
  },
  ...DUNE_SAMPLE_QUERIES,
];
