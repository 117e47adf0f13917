import type { NewQuery } from '../queries/query-store.ts';

// The queries a fresh data directory starts with: what a person sees first in the app, and what
// tests and benchmarks run. All generate their data with DuckDB, so they need no tables. A `/`
// meant to give a double says so (`::DOUBLE`): between two integers it truncates, as on Dune.

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
    description: 'Daily trade count and USD volume of one chain, for trades above a minimum size. Pick the chain and the minimum as parameters.',
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
    description: 'Deliberately slow: hashes three billion numbers, which takes ten seconds or more. Run it to watch an execution in progress, or to try cancelling one.',
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
];
