// What running DuneSQL costs beside the same query written directly in DuckDB: the rewrite, the
// macros' creation per DuckDB, and a join of transfers with tokens grouped by day in both forms.
// `measureDuneSqlOverhead` is for the service bench; `node bench/dunesql-overhead.ts` prints it alone.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { createDuneSqlMacros } from '../main/service/dunesql/macros.ts';
import { rewriteDuneSql } from '../main/service/dunesql/rewrite.ts';

const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const blob = (hex: string) => `'${hex.slice(2).replace(/../g, (pair) => `\\x${pair}`)}'::BLOB`;

const DUNESQL = `SELECT date_trunc('day', t.block_time) AS day, k.symbol, count(*) AS transfers,
  sum(t.value / pow(10, k.decimals)) AS amount, sum(t.value) AS raw_amount
FROM transfers t JOIN tokens k ON t.contract_address = k.contract_address
WHERE t.contract_address IN (${USDC}, ${WETH}) AND t.block_time >= date_add('day', -90, TIMESTAMP '2024-12-31 00:00:00')
GROUP BY 1, 2 ORDER BY 1, 2`;

// DuckDB's own sum of a UHUGEINT is a DOUBLE: the direct form sums as HUGEINT, exact to 2^127.
const DIRECT = `SELECT date_trunc('day', t.block_time) AS day, k.symbol, count(*) AS transfers,
  sum(t.value / pow(10, k.decimals)) AS amount, sum(t.value::HUGEINT) AS raw_amount
FROM transfers t JOIN tokens k ON t.contract_address = k.contract_address
WHERE t.contract_address IN (${blob(USDC)}, ${blob(WETH)}) AND t.block_time >= TIMESTAMP '2024-12-31 00:00:00' - INTERVAL 90 DAY
GROUP BY 1, 2 ORDER BY 1, 2`;

async function fastest(runs: number, work: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

async function sampleTables(connection: DuckDBConnection, rows: number): Promise<void> {
  await connection.run(`CREATE TABLE dune.main.tokens AS SELECT * FROM (VALUES
    (${blob(USDC)}, 'USDC', 6), (${blob(WETH)}, 'WETH', 18), (${blob('0x6b175474e89094c44da98b954eedeac495271d0f')}, 'DAI', 18)) t(contract_address, symbol, decimals)`);
  await connection.run(`CREATE TABLE dune.main.transfers AS SELECT
      TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i * 31) AS block_time,
      [${blob(USDC)}, ${blob(WETH)}, ${blob('0x6b175474e89094c44da98b954eedeac495271d0f')}][1 + i % 3] AS contract_address,
      (hash(i) % 1000000000000000000000)::UHUGEINT AS value
    FROM range(${rows}) r(i)`);
}

export interface DuneSqlOverhead {
  rewriteMicros: number;
  macrosMillis: number;
  /** Rewriting (DuneSQL only) and preparing the statement, where macros are expanded. */
  duneSqlPrepareMillis: number;
  directPrepareMillis: number;
  duneSqlMillis: number;
  directMillis: number;
}

/** The figures on `rows` transfers, each the fastest of a few runs. */
export async function measureDuneSqlOverhead(rows = 1_000_000): Promise<DuneSqlOverhead> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`ATTACH ':memory:' AS dune`);
    const macrosMillis = await fastest(1, () => createDuneSqlMacros(instance, 'dune'));
    await connection.run('USE dune');
    await sampleTables(connection, rows);
    const repeats = 1000;
    const rewriteMicros =
      ((await fastest(3, async () => {
        for (let i = 0; i < repeats; i++) rewriteDuneSql(DUNESQL);
      })) *
        1000) /
      repeats;
    const duneSqlPrepareMillis = await fastest(20, () => connection.prepare(rewriteDuneSql(DUNESQL).sql));
    const directPrepareMillis = await fastest(20, () => connection.prepare(DIRECT));
    // taken in turns, so that a slower moment of the machine weighs on both alike
    let duneSqlMillis = Infinity;
    let directMillis = Infinity;
    for (let i = 0; i < 15; i++) {
      duneSqlMillis = Math.min(duneSqlMillis, await fastest(1, () => connection.runAndReadAll(rewriteDuneSql(DUNESQL).sql)));
      directMillis = Math.min(directMillis, await fastest(1, () => connection.runAndReadAll(DIRECT)));
    }
    return { rewriteMicros, macrosMillis, duneSqlPrepareMillis, directPrepareMillis, duneSqlMillis, directMillis };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

if (import.meta.main) {
  const figures = await measureDuneSqlOverhead();
  console.log(
    `rewrite ${figures.rewriteMicros.toFixed(1)} µs; macros ${figures.macrosMillis.toFixed(1)} ms a DuckDB; ` +
      `prepared: DuneSQL ${figures.duneSqlPrepareMillis.toFixed(2)} ms, direct ${figures.directPrepareMillis.toFixed(2)} ms; ` +
      `DuneSQL ${figures.duneSqlMillis.toFixed(1)} ms, direct ${figures.directMillis.toFixed(1)} ms ` +
      `(${(figures.duneSqlMillis / figures.directMillis).toFixed(2)}x)`,
  );
}
