import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TABLES } from '../../../../main/common/dune-tables/index.ts';
import { parseType, typeName } from '../../../../main/common/dune-types/index.ts';
import { SampleTables } from '../../../../main/service/samples/sample-tables.ts';
import { DUNE_SAMPLE_QUERIES } from '../../../../main/service/seed/demo-queries.ts';
import { executeSql, withApiKey } from '../run-sql.ts';
import { newDataDir, startHarness, type Harness, type Json } from '../service-harness.ts';

// The sample of Dune's tables: made on the first execution that names one, under Dune's names and
// types, consistent across tables, read-only to every context, and an unknown table answered as
// the hosted service does.

const ACCOUNTS = {
  accounts: [
    { handle: 'demo', type: 'user', plan: 'plus', api_keys: ['key-demo'] },
    // a handle that is also a schema of Dune's
    { handle: 'ethereum', type: 'user', plan: 'plus', api_keys: ['key-ethereum'] },
  ],
};

let h: Harness;
const sql = (text: string, key = 'key-demo'): Promise<Json> => executeSql(h, key, text);
const sampleDir = () => join(h.dataDir, 'samples');

beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h.stop());

describe("the sample of Dune's tables", () => {
  it('is not made at start, and is made by the first execution that names one of its tables', async () => {
    expect(readdirSync(sampleDir())).toEqual([]);
    expect(await sql('select 1 as one')).toEqual([{ one: 1 }]);
    expect(readdirSync(sampleDir())).toEqual([]);
    const [{ n }] = await sql('select count(*) as n from ethereum.transactions');
    expect(n).toBeGreaterThan(50_000);
    expect(readdirSync(sampleDir())).toHaveLength(1);
  }, 60_000);

  it("has every table under Dune's name, with Dune's columns and types", async () => {
    for (const table of SAMPLE_TABLES) {
      const name = `${table.schema}.${table.name}`;
      const run = await h.post('/api/v1/sql/execute', { sql: `select * from ${name} limit 1` }, withApiKey('key-demo'));
      await h.waitUntilFinishedAs(run.body.execution_id, 'key-demo');
      const { body } = await h.get(`/api/v1/execution/${run.body.execution_id}/results`, withApiKey('key-demo'));
      const { column_names: names, column_types: types } = body.result.metadata;
      expect(names, name).toEqual(table.columns.map((c) => c.name));
      // in the spelling the service gives every DuneSQL type (a row's mixed-case field in quotes)
      expect(types, name).toEqual(table.columns.map((c) => typeName(parseType(c.type))));
      for (const [i, c] of table.columns.entries()) if (!c.type.includes('row(')) expect(types[i], `${name}.${c.name}`).toBe(c.type);
      expect(body.result.rows, name).toHaveLength(1);
    }
  });

  it('holds a few hundred thousand rows in all', async () => {
    const counts = SAMPLE_TABLES.map((t) => `(select count(*) from ${t.schema}.${t.name})`).join(' + ');
    const [{ n }] = await sql(`select ${counts} as n`);
    expect(n).toBeGreaterThan(200_000);
    expect(n).toBeLessThan(600_000);
  });

  it('is consistent: transfers and trades happen in successful transactions, tokens and prices match', async () => {
    // every transfer is in a successful transaction of the same block, time and sender
    expect(
      await sql(`select count(*) as n from erc20_ethereum.evt_Transfer e
      left join ethereum.transactions t on t.hash = e.evt_tx_hash and t.block_number = e.evt_block_number
        and t.block_time = e.evt_block_time and t."from" = e.evt_tx_from and t.success
      where t.hash is null`),
    ).toEqual([{ n: 0 }]);
    // every transaction sits in its block, by number, hash and time
    expect(
      await sql(`select count(*) as n from ethereum.transactions t
      left join ethereum.blocks b on b.number = t.block_number and b.hash = t.block_hash and b.time = t.block_time
      where b.number is null`),
    ).toEqual([{ n: 0 }]);
    // a block's gas is its transactions'
    expect(
      await sql(`select count(*) as n from ethereum.blocks b
      join (select block_number, sum(gas_used) as gas from ethereum.transactions group by 1) t on t.block_number = b.number
      where b.gas_used <> t.gas`),
    ).toEqual([{ n: 0 }]);
    // a trade's tokens are known, its USD amount is its sold amount at that minute's price,
    // and it moved both tokens in its transaction
    expect(
      await sql(`select count(*) as n from dex.trades d
      join tokens.erc20 s on s.contract_address = d.token_sold_address and s.symbol = d.token_sold_symbol
      join tokens.erc20 b on b.contract_address = d.token_bought_address and b.symbol = d.token_bought_symbol
      join prices.usd p on p.contract_address = d.token_sold_address and p.minute = date_trunc('minute', d.block_time)
      where abs(d.token_sold_amount * p.price - d.amount_usd) <= 1e-9 * d.amount_usd
        and d.token_sold_amount = d.token_sold_amount_raw / pow(10, s.decimals)
        and 2 = (select count(*) from erc20_ethereum.evt_Transfer e where e.evt_tx_hash = d.tx_hash)`),
    ).toEqual(await sql('select count(*) as n from dex.trades'));
    // the hashes and addresses are of Ethereum's sizes
    expect(
      await sql(`select min(octet_length(hash)) as a, max(octet_length(hash)) as b, min(octet_length("from")) as c, max(octet_length("to")) as d
      from ethereum.transactions`),
    ).toEqual([{ a: 32, b: 32, c: 20, d: 20 }]);
  });

  it('is read-only to every context: no statement changes it', async () => {
    const before = await sql('select count(*) as n, sum(gas_used) as g from ethereum.blocks');
    for (const text of [
      'delete from ethereum.blocks',
      "insert into tokens.erc20 values ('ethereum', null, 'X', 1)",
      'update prices.usd set price = 0',
      'drop table dex.trades',
      'create table ethereum.mine as select 1',
      'delete from "dune sample".ethereum.blocks',
    ]) {
      const status = await sql(text);
      expect(status.state, text).toBe('QUERY_STATE_FAILED');
    }
    expect(await sql('select count(*) as n, sum(gas_used) as g from ethereum.blocks')).toEqual(before);
    expect(await sql('select count(*) as n from dex.trades', 'key-ethereum')).toEqual(await sql('select count(*) as n from dex.trades'));
  });

  it("keeps Dune's table under ethereum.transactions when a handle is ethereum: its own is dune.ethereum.<table>", async () => {
    const as = withApiKey('key-ethereum');
    const create = (table_name: string) =>
      h.post('/api/v1/table/create', { namespace: 'ethereum', table_name, schema: [{ name: 'note', type: 'varchar' }] }, as);
    const insert = (table: string) =>
      h.post(`/api/v1/table/ethereum/${table}/insert`, undefined, {
        headers: { ...as.headers, 'content-type': 'text/csv' },
        body: 'note\nmine\n',
      });
    for (const table of ['transactions', 'notes']) {
      expect((await create(table)).status).toBe(200);
      expect((await insert(table)).status).toBe(200);
    }
    for (const key of ['key-ethereum', 'key-demo']) {
      expect(await sql('select count(*) > 50000 as sample from ethereum.transactions', key)).toEqual([{ sample: true }]);
      expect(await sql('select note from dune.ethereum.transactions', key)).toEqual([{ note: 'mine' }]);
      // its other tables keep their two-part name beside Dune's
      expect(await sql('select note from ethereum.notes', key)).toEqual([{ note: 'mine' }]);
    }
  });

  it("answers an unknown table as the hosted service does, with its position, and a hint for Dune's own", async () => {
    const logs = await sql('select block_time\nfrom ethereum.logs\nlimit 5');
    expect(logs.state).toBe('QUERY_STATE_FAILED');
    expect(logs.error).toMatchObject({ type: 'FAILED_TYPE_EXECUTION_FAILED', metadata: { line: 2, column: 6 } });
    expect(logs.error.message).toMatch(
      /^line 2:6: Table 'ethereum\.logs' does not exist: it is one of Dune's tables, which the embedded service has no sample of \(offline: ethereum\.blocks, .*labels\.addresses\); run the query on Dune for it$/,
    );
    const nft = await sql('select * from nft.trades');
    expect(nft.error.message).toMatch(/^line 1:15: Table 'nft\.trades' does not exist: it is one of Dune's tables/);
    expect(nft.error.metadata).toEqual({ line: 1, column: 15 });
    const typo = await sql('select * from "ethereum"."transaction"');
    expect(typo.error.message).toBe("line 1:15: Table 'ethereum.transaction' does not exist");
  });

  it('runs every DuneSQL demo query', async () => {
    for (const query of DUNE_SAMPLE_QUERIES) {
      const rows = await sql(query.sql);
      expect(Array.isArray(rows), `${query.name}: ${JSON.stringify(rows)}`).toBe(true);
      expect(rows.length, query.name).toBeGreaterThan(0);
    }
    // 0x literals and approx_distinct, rewritten for DuckDB
    const transfers = await sql(DUNE_SAMPLE_QUERIES[0]!.sql);
    expect([...new Set(transfers.map((r: Json) => r.symbol))].sort()).toEqual(['USDC', 'USDT', 'WETH']);
    expect(transfers).toHaveLength(9);
    const [volume] = await sql(DUNE_SAMPLE_QUERIES[1]!.sql);
    expect(volume.volume_usd).toBeGreaterThan(0);
    expect(volume.traders).toBeGreaterThan(100);
  });

  it('is the same every time it is made', async () => {
    const digest = async (file: string) => {
      const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
      const connection = await instance.connect();
      const sums = [];
      for (const t of SAMPLE_TABLES) {
        sums.push(
          (await connection.runAndReadAll(`select count(*), bit_xor(hash(columns(*))) from "${t.schema}"."${t.name}"`)).getRowsJson(),
        );
      }
      connection.closeSync();
      instance.closeSync();
      return sums;
    };
    const [file] = readdirSync(sampleDir());
    const other = newDataDir();
    try {
      expect(await digest(await new SampleTables(other).make())).toEqual(await digest(join(sampleDir(), file!)));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('is kept across restarts, not made again', async () => {
    const [file] = readdirSync(sampleDir());
    const made = statSync(join(sampleDir(), file!)).mtimeMs;
    await h.restart();
    expect(await sql('select count(*) as n from tokens.erc20')).toEqual([{ n: 16 }]);
    expect(readdirSync(sampleDir())).toEqual([file]);
    expect(statSync(join(sampleDir(), file!)).mtimeMs).toBe(made);
    expect(existsSync(join(sampleDir(), file!))).toBe(true);
  });
});
