import { ColumnType, ContentType, type DuneClient } from '@duneanalytics/client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../service/accounts-fixture.ts';
import { POLL, startClientHarness, type ClientHarness } from './client-harness.ts';

let h: ClientHarness;
beforeAll(async () => {
  h = await startClientHarness();
});
afterAll(() => h.stop());

/** Creates a query with the client and runs it; its rows. */
async function rowsOfSql(client: DuneClient, querySql: string) {
  const queryId = await client.query.createQuery({ name: 'read a table', query_sql: querySql, is_private: true });
  return (await client.runQuery({ queryId, opts: POLL })).result!.rows;
}

describe('official client: uploads', () => {
  it('uploads a CSV (legacy and current paths), then queries it; a second upload replaces the table', async () => {
    const alice = h.client(KEYS.alice);
    const uploaded = await alice.table.uploadCsv({
      table_name: 'prices',
      data: 'symbol,price\nETH,3000.5\nBTC,60000\n',
      description: 'spot',
    });
    expect(uploaded).toBe(true);
    const sql = 'SELECT symbol, price FROM dune.alice.dataset_prices ORDER BY symbol';
    expect(await rowsOfSql(alice, sql)).toEqual([
      { symbol: 'BTC', price: 60000 },
      { symbol: 'ETH', price: 3000.5 },
    ]);

    expect(await alice.uploads.uploadCsv({ table_name: 'prices', data: 'symbol,price\nSOL,150.25\n' })).toBe(true);
    expect(await rowsOfSql(alice, sql)).toEqual([{ symbol: 'SOL', price: 150.25 }]);
  });

  it('creates a table with a schema, inserts CSV into it, lists it and deletes it', async () => {
    const alice = h.client(KEYS.alice);
    const created = await alice.uploads.create({
      namespace: 'alice',
      table_name: 'transfers',
      schema: [
        { name: 'id', type: ColumnType.Integer },
        { name: 'amount', type: ColumnType.Double, nullable: true },
      ],
    });
    expect(created).toMatchObject({ full_name: 'dune.alice.transfers', example_query: 'select * from dune.alice.transfers limit 10' });
    const inserted = await alice.uploads.insert({
      namespace: 'alice',
      table_name: 'transfers',
      data: Buffer.from('id,amount\n1,2.5\n2,\n'),
      content_type: ContentType.Csv,
    });
    expect(inserted.rows_written).toBe(2);
    expect(await rowsOfSql(alice, 'SELECT * FROM dune.alice.transfers ORDER BY id')).toEqual([
      { id: 1, amount: 2.5 },
      { id: 2, amount: null },
    ]);
    const listed = await alice.uploads.list();
    expect(listed.tables.map((t) => t.full_name)).toContain('dune.alice.transfers');

    const deleted = await alice.uploads.delete({ namespace: 'alice', table_name: 'transfers' });
    expect(deleted.message).toBe('Table alice.transfers successfully deleted');
  });

  it('lets a premium team upload a private table and query it; refuses a private upload on the free plan', async () => {
    const acme = h.client(KEYS.acme);
    expect(await acme.uploads.uploadCsv({ table_name: 'secret', data: 'k,v\na,1\n', is_private: true })).toBe(true);
    expect(await rowsOfSql(acme, 'SELECT * FROM dune.acme.dataset_secret')).toEqual([{ k: 'a', v: 1 }]);

    const bob = h.client(KEYS.bob);
    await expect(bob.uploads.uploadCsv({ table_name: 'mine', data: 'k\na\n', is_private: true })).rejects.toThrow(
      /Status: 403, Message: .*premium plan/,
    );
  });
});
