import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalSqlTable, ResultPage } from '../../../../main/contract/index.ts';
import { startCacheHarness, type CacheHarness } from '../cache/cache-harness.ts';

// SQL over two real cached results, with the service stopped: the join's rows, errors placed in
// the statement, every way out of the sandbox refused, and the cached results unchanged after it.

let harness: CacheHarness;
let wallets: LocalSqlTable;
let transfers: LocalSqlTable;
let trades: LocalSqlTable;

beforeAll(async () => {
  harness = await startCacheHarness();
  // the app's query list, where a query's name is known from
  await harness.call('workspace:open', { accountId: 'local' });
  await harness.call('workspace:refresh', { accountId: 'local' });
  const a = await harness.runSql(`SELECT i AS wallet_id, 'w' || i AS label FROM range(20) AS t(i) ORDER BY i`);
  const b = await harness.runSql(`SELECT i AS transfer_id, i % 10 AS wallet_id, i * 1.5 AS amount FROM range(100) AS t(i) ORDER BY i`);
  const demo = await harness.run('Demo trades');
  for (const id of [a, b, demo]) expect(await harness.cacheWhole(id)).toMatchObject({ state: 'cached' });
  await harness.stopService();
  const listed = await harness.call('localsql:tables', { accountId: 'local' });
  if (!listed.ok) throw new Error(listed.error.message);
  wallets = listed.data.tables.find((t) => t.executionId === a)!;
  transfers = listed.data.tables.find((t) => t.executionId === b)!;
  trades = listed.data.tables.find((t) => t.executionId === demo)!;
}, 60_000);
afterAll(async () => harness?.close());

async function run(sql: string) {
  return harness.call('localsql:run', { accountId: 'local', sql });
}

async function rows(executionId: string, sortBy?: string): Promise<ResultPage> {
  const page = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 1000, sortBy });
  if (!page.ok) throw new Error(page.error.message);
  return page.data;
}

describe('local SQL over cached results, offline', () => {
  it('offers each cached result as a table with its columns', () => {
    expect(wallets).toMatchObject({ rowCount: 20, columns: [{ name: 'wallet_id' }, { name: 'label' }] });
    expect(transfers.name).toMatch(/^[a-z0-9_]+$/);
    expect(transfers.name).not.toBe(wallets.name);
  });

  it('joins two results on a key into a result read like any other', async () => {
    const answer = await run(
      `SELECT w.label, count(*) AS transfers, sum(t.amount) AS total\nFROM ${transfers.name} t JOIN ${wallets.name} w USING (wallet_id)\nGROUP BY 1 ORDER BY 1`,
    );
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.data.rowCount).toBe(10);
    const page = await rows(answer.data.executionId);
    expect(page.columns.map((c) => c.name)).toEqual(['label', 'transfers', 'total']);
    // wallet k gets transfers k, k+10, …, k+90: ten of them, 1.5 × (10k + 450) in all
    expect(page.rows[0]).toEqual(['w0', 10, 675]);
    expect(page.rows[9]).toEqual(['w9', 10, 810]);
    const sorted = await rows(answer.data.executionId, 'total desc');
    expect(sorted.rows[0]![0]).toBe('w9');
  });

  it("names a query's run after the query and the run's time, with its latest run's aliases", async () => {
    expect(trades.name).toMatch(new RegExp(`^q_${trades.queryId}_run_\\d{8}_\\d{4}$`));
    expect(trades.aliases).toEqual([`q_${trades.queryId}_latest`, 'demo_trades']);
    for (const name of [trades.name, ...trades.aliases]) {
      const answer = await run(`SELECT count(*) AS n FROM ${name}`);
      if (!answer.ok) throw new Error(answer.error.message);
      expect((await rows(answer.data.executionId)).rows).toEqual([[5000]]);
    }
  });

  it('answers a mistake with its line and column', async () => {
    const answer = await run(`SELECT label,\n  no_such_column\nFROM ${wallets.name}`);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('bad_request');
    expect(answer.error.details).toEqual({ line: 2, column: 3 });
    expect(answer.error.message).toMatch(/^line 2:3: .*no_such_column/);
  });
});

let before: ResultPage;

describe('the sandbox', () => {
  beforeAll(async () => {
    before = await rows(wallets.executionId);
  });

  const refusals: [string, RegExp][] = [
    [`INSERT INTO {w} VALUES (99, 'x')`, /INSERT is refused/],
    [`DELETE FROM {w}`, /DELETE is refused/],
    [`UPDATE {w} SET label = 'x'`, /UPDATE is refused/],
    [`DROP VIEW {w}`, /DROP is refused/],
    [`ALTER VIEW {w} RENAME TO x`, /ALTER is refused/],
    [`CREATE OR REPLACE TABLE {w} AS SELECT 1 AS wallet_id`, /CREATE is refused/],
    [`ATTACH '/tmp/other.duckdb' AS other`, /ATTACH is refused/],
    [`COPY (SELECT 1) TO '/tmp/querydesk-out.csv'`, /COPY is refused/],
    [`INSTALL httpfs`, /INSTALL is refused/],
    [`LOAD httpfs`, /LOAD is refused/],
    [`SET enable_external_access = true`, /SET is refused/],
    [`SELECT 1; DELETE FROM {w}`, /2 statements/],
    [`SELECT * FROM read_csv('/etc/passwd')`, /file system operations are disabled/],
    [`SELECT * FROM read_text('${process.cwd()}/package.json')`, /file system operations are disabled/],
    [`SELECT * FROM 'https://example.com/data.csv'`, /file system operations are disabled/],
    [`SELECT * FROM glob('/*')`, /file system operations are disabled/],
    [`SELECT table_name FROM duckdb_tables()`, /duckdb_tables\(\) is not available/],
    [`SELECT table_name FROM information_schema.tables`, /is not available/],
    [`SELECT * FROM results.main.cache_entries`, /results/],
    [`SELECT * FROM pragma_storage_info('cache_entries')`, /cache_entries does not exist/],
    [`SELECT * FROM query_table('cache_entries')`, /cache_entries/],
    [`SELECT * FROM checkpoint()`, /checkpoint\(\) is not available/],
  ];

  it.each(refusals)('refuses %s', async (sql, reason) => {
    const answer = await run(sql.replaceAll('{w}', wallets.name));
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.message).toMatch(reason);
  });

  it('leaves every cached result as it was, whatever ran', async () => {
    const page = await rows(wallets.executionId);
    expect(page.totalRowCount).toBe(20);
    expect(page.rows).toEqual(before.rows);
    expect(page.rows[5]).toEqual([5, 'w5']);
    const still = await harness.call('localsql:tables', { accountId: 'local' });
    expect(still.ok && still.data.tables.find((t) => t.executionId === wallets.executionId)).toMatchObject({
      name: wallets.name,
      rowCount: 20,
    });
  });
});

describe('attached CSV files', () => {
  it('joins an attached file (sent in parts) with a cached result, and forgets it when detached', async () => {
    await harness.call('localsql:attachCsv', { accountId: 'local', name: 'tags', text: 'wallet_id,tag\n3,wh', append: false });
    const attached = await harness.call('localsql:attachCsv', { accountId: 'local', name: 'tags', text: 'ale\n4,bot\n', append: true });
    expect(attached).toMatchObject({ ok: true, data: { name: 'tags', bytes: 28 } });
    const answer = await run(`SELECT w.label, tags.tag FROM ${wallets.name} w JOIN tags USING (wallet_id) ORDER BY 1`);
    if (!answer.ok) throw new Error(answer.error.message);
    expect((await rows(answer.data.executionId)).rows).toEqual([
      ['w3', 'whale'],
      ['w4', 'bot'],
    ]);
    await harness.call('localsql:detachCsv', { accountId: 'local', name: 'tags' });
    expect((await run('SELECT * FROM tags')).ok).toBe(false);
  });
});

describe('a long statement', () => {
  it('stops when cancelled, and caches nothing', async () => {
    const before = await harness.call('localsql:tables', { accountId: 'local' });
    const running = harness.call('localsql:run', {
      accountId: 'local',
      sql: `SELECT sum(hash(i)) AS h FROM range(100000000000) AS t(i) JOIN ${wallets.name} ON true`,
      runId: 'long',
    });
    expect(await harness.call('localsql:cancel', { accountId: 'local', runId: 'long' })).toEqual({ ok: true, data: { cancelled: true } });
    expect(await running).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await harness.call('localsql:cancel', { accountId: 'local', runId: 'long' })).toEqual({ ok: true, data: { cancelled: false } });
    expect(await harness.call('localsql:tables', { accountId: 'local' })).toEqual(before);
  });
});

describe('a local result', () => {
  it('replaces the one it says, and stays across a restart', async () => {
    const first = await run(`SELECT 1 AS one`);
    const second = await harness.call('localsql:run', {
      accountId: 'local',
      sql: `SELECT 2 AS two`,
      replaces: first.ok ? first.data.executionId : null,
    });
    if (!first.ok || !second.ok) throw new Error('local SQL failed');
    expect((await harness.call('results:cacheStatus', { accountId: 'local', executionId: first.data.executionId })).ok).toBe(true);
    const gone = await harness.call('results:getRows', { accountId: 'local', executionId: first.data.executionId, startRow: 0, endRow: 1 });
    expect(gone.ok).toBe(false);
    await harness.restartCore();
    expect((await rows(second.data.executionId)).rows).toEqual([[2]]);
  });
});
