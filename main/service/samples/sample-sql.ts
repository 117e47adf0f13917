import { SAMPLE_TABLES } from '../../common/dune-tables/index.ts';
import { parseType, type DuneType } from '../../common/dune-types/index.ts';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';

// The statements that fill a new DuckDB file with the sample of Dune's tables: three days of
// Ethereum from 2024-03-01, made up but consistent. Every value is a function of a row's number
// (through `mix`, or md5 for hashes and addresses), so every making gives the same file: a block's
// transactions carry its hash and time, an ERC-20 transfer or a swap happens in a transaction
// to the token or the router, a trade moves its two tokens with two transfers, and its USD amount
// is its sold amount at that minute's price in prices.usd. Failed transactions emit nothing.

// 2024-03-01 00:00:00 UTC, in seconds: times are made from numbers (to_timestamp), and dates from
// the same times without a zone, as the time zone's calendar is slow on this many rows.
const START_EPOCH = 1_709_251_200;
const START = `TIMESTAMP '2024-03-01 00:00:00'`;
const DAYS = 3;
const BLOCK_SECONDS = 12;
const BLOCKS = (DAYS * 86_400) / BLOCK_SECONDS;
const FIRST_BLOCK = 19_337_000;
const WALLETS = 4_000;

// symbol, contract (hex), decimals, price in USD on the first minute, and how much it moves
const TOKENS: [string, string, number, number, number][] = [
  ['WETH', 'c02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', 18, 3400, 0.04],
  ['USDC', 'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 6, 1, 0.0005],
  ['USDT', 'dac17f958d2ee523a2206206994597c13d831ec7', 6, 1, 0.0005],
  ['DAI', '6b175474e89094c44da98b954eedeac495271d0f', 18, 1, 0.0005],
  ['WBTC', '2260fac5e5542a773aa44fbcfedf7c193bc2c599', 8, 62000, 0.03],
  ['LINK', '514910771af9ca656af840dff83e8264ecf986ca', 18, 19, 0.06],
  ['UNI', '1f9840a85d5af5bf1d1762f925bdaddc4201f984', 18, 11, 0.07],
  ['AAVE', '7fc66500c84a76ad7e9c93437bfc5ac33e2ddae9', 18, 120, 0.06],
  ['MKR', '9f8f72aa9304c8b593d555f12ef6589cc3a579a2', 18, 2100, 0.05],
  ['SHIB', '95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce', 18, 0.000025, 0.1],
  ['PEPE', '6982508145454ce325ddbe47a25d4ec3d2311933', 18, 0.0000035, 0.12],
  ['LDO', '5a98fcbea516cf06857215779fd812ca3bef1b32', 18, 3.2, 0.08],
  ['stETH', 'ae7ab96520de3a18e5e111b5eaab095312d7fe84', 18, 3390, 0.04],
  ['CRV', 'd533a949740bb3306d119cc777fa900ba034cd52', 18, 0.7, 0.08],
  ['MATIC', '7d1afa7b718fb893db30a3abc0cfc608aacfebb0', 18, 1.05, 0.07],
  ['COMP', 'c00e94cb662c3520282e6f5717214004a7f26888', 18, 60, 0.06],
];

// project, version, router (hex), label of the router
const DEXES: [string, string, string, string][] = [
  ['uniswap', '2', '7a250d5630b4cf539739df2c5dacb4c659f2488d', 'Uniswap V2: Router 2'],
  ['uniswap', '3', 'e592427a0aece92de3edee1f18e0157c05861564', 'Uniswap V3: Router'],
  ['sushiswap', '1', 'd9e1ce17f2641f24ae83637ab66a2cca9c378b9f', 'SushiSwap: Router'],
];

const BUILDERS: [string, string][] = [
  ['95222290dd7278aa3ddd389cc1e1d165cc4bafe5', 'beaverbuild'],
  ['4838b106fce9647bdf1e7877bf73ce8b0bad5f97', 'Titan Builder'],
  ['1f9090aae28b8a3dceadf281b0f12828e676c326', 'rsync-builder'],
];

const literal = (value: string | number) => (typeof value === 'number' ? String(value) : quoteLiteral(value));
const values = (rows: (string | number)[][]) => rows.map((row) => `(${row.map(literal).join(', ')})`).join(',\n  ');

/** DuckDB's spelling of a DuneSQL type of the sample tables. */
function duckdbType(type: DuneType): string {
  switch (type.name) {
    case 'varbinary':
      return 'BLOB';
    case 'uint256':
      return 'UHUGEINT';
    case 'timestamp':
      return type.withTimeZone ? 'TIMESTAMPTZ' : 'TIMESTAMP';
    case 'decimal':
      return `DECIMAL(${type.params.join(', ')})`;
    case 'array':
      return `${duckdbType(type.fields[0]!.type)}[]`;
    case 'row':
      return `STRUCT(${type.fields.map((f) => `${q(f.name!)} ${duckdbType(f.type)}`).join(', ')})`;
    default:
      return type.name.toUpperCase();
  }
}

/** The sample tables, empty, with Dune's names and types, in the file's own schemas. */
function createTables(): string[] {
  const schemas = [...new Set(SAMPLE_TABLES.map((t) => t.schema))].map((s) => `CREATE SCHEMA ${q(s)}`);
  const tables = SAMPLE_TABLES.map(
    (t) => `CREATE TABLE ${q(t.schema)}.${q(t.name)} (${t.columns.map((c) => `${q(c.name)} ${duckdbType(parseType(c.type))}`).join(', ')})`,
  );
  return [...schemas, ...tables];
}

// A well-spread number from a row's number and a salt: DuckDB's own hash, the same on every
// machine for one DuckDB version (the file, once made, is kept).
const MACROS = `
CREATE TEMP MACRO mix(x, salt) AS hash(x::BIGINT * 64 + salt);
CREATE TEMP MACRO u(x, salt) AS mix(x, salt) / 18446744073709551616.0;
CREATE TEMP MACRO bytes32(kind, n) AS unhex(md5(kind || ':' || n::VARCHAR) || md5(kind || '/' || n::VARCHAR));
CREATE TEMP MACRO addr(kind, n) AS unhex(md5(kind || ':' || n::VARCHAR) || left(md5(kind || '/' || n::VARCHAR), 8));
CREATE TEMP MACRO pick_wallet(x, salt) AS floor(${WALLETS} * pow(u(x, salt), 2))::BIGINT;
CREATE TEMP MACRO price_at(base, swing, token, minute) AS
  base * (1 + swing * sin(minute / 360.0 + token) + swing / 4 * sin(minute / 37.0 + 2 * token));`;

function scratch(): string {
  const tokens = TOKENS.map(([symbol, address, decimals, price, swing], i) => [i, symbol, address, decimals, price, swing]);
  return `
CREATE TEMP TABLE token AS SELECT id, symbol, unhex(address) AS address, decimals, price, swing
FROM (VALUES ${values(tokens)}) AS t(id, symbol, address, decimals, price, swing);
CREATE TEMP TABLE dex AS SELECT id, project, version, unhex(router) AS router, label
FROM (VALUES ${values(DEXES.map((d, i) => [i, ...d]))}) AS t(id, project, version, router, label);
-- the tokens moved most (stablecoins and WETH) come up more often
CREATE TEMP MACRO pick_token(x, salt) AS CASE WHEN u(x, salt) < 0.55 THEN mix(x, salt + 1) % 3 ELSE mix(x, salt + 1) % ${TOKENS.length} END;
CREATE TEMP TABLE wallet AS SELECT w, addr('wallet', w) AS address FROM range(${WALLETS}) AS r(w);
CREATE TEMP TABLE pool AS SELECT d.id AS dex_id, a.id AS a, b.id AS b,
  addr('pool', d.project || d.version || least(a.symbol, b.symbol) || greatest(a.symbol, b.symbol)) AS address
FROM dex AS d, token AS a, token AS b;
-- 32-byte words for call data, which needs no word of its own per transaction
CREATE TEMP TABLE word AS SELECT i, bytes32('word', i) AS bytes FROM range(4096) AS r(i);
CREATE TEMP TABLE block AS
SELECT n, ${FIRST_BLOCK} + n AS number, to_timestamp(${START_EPOCH} + n * ${BLOCK_SECONDS}) AS time,
  (${START} + to_seconds(n * ${BLOCK_SECONDS}))::DATE AS day,
  date_trunc('month', ${START} + to_seconds(n * ${BLOCK_SECONDS}))::DATE AS month,
  bytes32('block', n) AS hash,
  (25e9 + 15e9 * sin(n / 900.0) + 5e9 * u(n, 1))::BIGINT AS base_fee_per_gas, (1 + mix(n, 2) % 7)::BIGINT AS tx_count
FROM range(${BLOCKS}) AS r(n);
CREATE TEMP TABLE tx_index AS
SELECT b.n, b.number, b.time, b.day, b.month, b.hash AS block_hash, b.base_fee_per_gas, k, b.n * 8 + k AS id
FROM block AS b, range(b.tx_count) AS r(k);
CREATE TEMP TABLE tx AS
SELECT t.*, s.address AS sender, r.address AS receiver,
  CASE t.kind WHEN 'eth' THEN r.address WHEN 'erc20' THEN a.address ELSE d.router END AS recipient
FROM (
SELECT n, number, time, day, month, block_hash, base_fee_per_gas, k, id,
  CASE WHEN mix(id, 3) % 10 < 4 THEN 'eth' WHEN mix(id, 3) % 10 < 8 THEN 'erc20' ELSE 'swap' END AS kind,
  mix(id, 4) % 50 <> 0 AS success,
  pick_wallet(id, 5) AS sender_id,
  pick_wallet(id, 6) AS receiver_id,
  pick_token(id, 7) AS token_a,
  (pick_token(id, 7) + 1 + mix(id, 9) % ${TOKENS.length - 1}) % ${TOKENS.length} AS token_b,
  mix(id, 10) % ${DEXES.length} AS dex_id,
  pow(10, 1.5 + 3.5 * u(id, 11)) AS usd,
  (1e7 + 19e8 * u(id, 12))::BIGINT AS priority_fee,
  bytes32('tx', id) AS hash,
  (n * ${BLOCK_SECONDS}) // 60 AS minute_index,
  CASE WHEN mix(id, 3) % 10 < 4 THEN 21000 WHEN mix(id, 3) % 10 < 8 THEN 34000 + mix(id, 14) % 18000 ELSE 100000 + mix(id, 14) % 100000 END AS gas_used
FROM tx_index) AS t
JOIN wallet AS s ON s.w = t.sender_id JOIN wallet AS r ON r.w = t.receiver_id
JOIN token AS a ON a.id = t.token_a JOIN dex AS d ON d.id = t.dex_id;
-- what each token transfer and swap moved, in raw units at that minute's prices
CREATE TEMP TABLE moved AS
SELECT tx.*, d.project, d.version, d.router,
  a.symbol AS symbol_a, a.address AS address_a, a.decimals AS decimals_a,
  b.symbol AS symbol_b, b.address AS address_b, b.decimals AS decimals_b,
  round(tx.usd / price_at(a.price, a.swing, a.id, tx.minute_index) * pow(10, a.decimals))::UHUGEINT AS raw_a,
  round(tx.usd * 0.997 / price_at(b.price, b.swing, b.id, tx.minute_index) * pow(10, b.decimals))::UHUGEINT AS raw_b,
  price_at(a.price, a.swing, a.id, tx.minute_index) AS price_a, p.address AS pool
FROM tx JOIN token AS a ON a.id = tx.token_a JOIN token AS b ON b.id = tx.token_b JOIN dex AS d ON d.id = tx.dex_id
JOIN pool AS p ON p.dex_id = tx.dex_id AND p.a = tx.token_a AND p.b = tx.token_b
WHERE tx.kind <> 'eth';`;
}

function fill(): string {
  const builders = values(BUILDERS.map(([address, name], i) => [i, address, name]));
  return `
INSERT INTO ethereum.transactions BY NAME
SELECT time AS block_time, number AS block_number,
  CASE WHEN kind = 'eth' THEN round(pow(10, 15 + 4 * u(id, 13)))::UHUGEINT ELSE 0::UHUGEINT END AS value,
  CASE kind WHEN 'eth' THEN 21000 WHEN 'erc20' THEN 65000 ELSE 250000 END AS gas_limit,
  base_fee_per_gas + priority_fee AS gas_price,
  gas_used,
  CASE WHEN mix(id, 15) % 10 = 0 THEN NULL ELSE 2 * base_fee_per_gas + priority_fee END AS max_fee_per_gas,
  CASE WHEN mix(id, 15) % 10 = 0 THEN NULL ELSE priority_fee END AS max_priority_fee_per_gas,
  priority_fee AS priority_fee_per_gas,
  mix(id, 16) % 5000 AS nonce, k AS index, success, sender AS "from",
  recipient AS "to",
  block_hash,
  CASE kind WHEN 'eth' THEN ''::BLOB
    WHEN 'erc20' THEN unhex('a9059cbb000000000000000000000000') || receiver || w.bytes
    ELSE unhex('38ed1739') || w.bytes || unhex('000000000000000000000000') || sender END AS data,
  hash, CASE WHEN mix(id, 15) % 10 = 0 THEN 'Legacy' ELSE 'DynamicFee' END AS type,
  [] AS access_list, day AS block_date
FROM tx JOIN word AS w ON w.i = mix(id, 19) % 4096 ORDER BY id;

INSERT INTO erc20_ethereum."evt_Transfer" BY NAME
SELECT address_a AS contract_address, hash AS evt_tx_hash, sender AS evt_tx_from,
  CASE WHEN kind = 'erc20' THEN address_a ELSE router END AS evt_tx_to, k AS evt_tx_index, k * 4 AS evt_index,
  time AS evt_block_time, number AS evt_block_number, day AS evt_block_date,
  sender AS "from", CASE WHEN kind = 'erc20' THEN receiver ELSE pool END AS "to", raw_a AS value
FROM moved WHERE success
UNION ALL
SELECT address_b, hash, sender, router, k, k * 4 + 1, time, number, day, pool, sender, raw_b
FROM moved WHERE success AND kind = 'swap'
ORDER BY evt_block_number, evt_index;

INSERT INTO dex.trades BY NAME
SELECT 'ethereum' AS blockchain, project, version, month AS block_month, day AS block_date,
  time AS block_time, number AS block_number, symbol_b AS token_bought_symbol, symbol_a AS token_sold_symbol,
  least(symbol_a, symbol_b) || '-' || greatest(symbol_a, symbol_b) AS token_pair,
  raw_b / pow(10, decimals_b) AS token_bought_amount, raw_a / pow(10, decimals_a) AS token_sold_amount,
  raw_b AS token_bought_amount_raw, raw_a AS token_sold_amount_raw, raw_a / pow(10, decimals_a) * price_a AS amount_usd,
  address_b AS token_bought_address, address_a AS token_sold_address, sender AS taker, NULL AS maker,
  pool AS project_contract_address, hash AS tx_hash, sender AS tx_from, router AS tx_to, k * 4 + 2 AS evt_index
FROM moved WHERE success AND kind = 'swap' ORDER BY id;

INSERT INTO ethereum.blocks BY NAME
SELECT b.time, b.number,
  30000000::DECIMAL(38, 0) AS gas_limit, coalesce(used.gas, 0)::DECIMAL(38, 0) AS gas_used,
  (SELECT unhex(address) FROM (VALUES ${builders}) AS m(id, address, name) WHERE m.id = mix(b.n, 17) % ${BUILDERS.length}) AS miner,
  b.hash, bytes32('block', b.n - 1) AS parent_hash,
  (20000 + 400 * b.tx_count + mix(b.n, 18) % 30000)::BIGINT AS size, unhex('0000000000000000') AS nonce,
  b.base_fee_per_gas, 0::DECIMAL(38, 0) AS difficulty, 58750003716598352816469::DECIMAL(38, 0) AS total_difficulty,
  0 AS blob_gas_used, 0 AS excess_blob_gas, bytes32('beacon', b.n) AS parent_beacon_block_root,
  b.day AS date
FROM block AS b LEFT JOIN (SELECT n, sum(gas_used) AS gas FROM tx GROUP BY n) AS used USING (n)
ORDER BY b.n;

INSERT INTO tokens.erc20 BY NAME
SELECT 'ethereum' AS blockchain, address AS contract_address, symbol, decimals FROM token ORDER BY id;

INSERT INTO prices.usd BY NAME
SELECT to_timestamp(${START_EPOCH} + m * 60) AS minute, 'ethereum' AS blockchain, address AS contract_address, decimals, symbol,
  price_at(price, swing, id, m) AS price
FROM token, range(${DAYS * 1440}) AS r(m) ORDER BY minute, id;

INSERT INTO labels.addresses BY NAME
SELECT 'ethereum' AS blockchain, address, name, category, 'querydesk' AS contributor, 'sample' AS source,
  TIMESTAMPTZ '2024-01-15 00:00:00+00' AS created_at, TIMESTAMPTZ '2024-02-01 00:00:00+00' AS updated_at,
  model AS model_name, type AS label_type
FROM (
  SELECT address, symbol || ' token' AS name, 'tokens' AS category, 'erc20' AS model, 'identifier' AS type FROM token
  UNION ALL SELECT router, label, 'dex', 'dex_routers', 'identifier' FROM dex
  UNION ALL SELECT unhex(address), name, 'infrastructure', 'block_builders', 'identifier' FROM (VALUES ${builders}) AS m(id, address, name)
  UNION ALL SELECT address, 'trader ' || w::VARCHAR, 'social', 'active_traders', 'persona' FROM wallet WHERE w < 400
  UNION ALL SELECT address, 'whale ' || w::VARCHAR, 'social', 'whales', 'persona' FROM wallet WHERE w < 40
) ORDER BY category, name;`;
}

/** Every statement, in order, that fills an empty DuckDB file with the sample tables. */
export function sampleStatements(): string[] {
  return [...createTables(), MACROS, scratch(), fill()];
}
