import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { runSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// Only reading statements run (DuckDB's own parser decides), and whatever a statement changes on its
// way (EXPLAIN ANALYZE runs what it explains) is undone: no execution changes what the next sees.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
  const upload = await h.post('/api/v1/table/upload/csv', { table_name: 'kept', data: 'a\n1\n2\n' }, withApiKey(KEYS.alice));
  expect(upload.status).toBe(200);
});
afterAll(() => h.stop());

const alice = (sql: string): Promise<Json> => runSql(h, KEYS.alice, sql);

describe("an execution's catalog", () => {
  it('is the same after EXPLAIN ANALYZE of a write: a table made, a view dropped and a macro made are all gone', async () => {
    for (const sql of [
      'EXPLAIN ANALYZE CREATE TABLE made AS SELECT 42 AS x',
      'EXPLAIN ANALYZE DROP VIEW dune.alice.dataset_kept',
      'EXPLAIN ANALYZE CREATE MACRO shadow(x) AS x + 1',
      'EXPLAIN ANALYZE INSERT INTO made VALUES (1)',
    ]) {
      const status = await alice(sql);
      // Either refused, or run and undone: what counts is what the next execution sees.
      expect(Array.isArray(status) || status.state === 'QUERY_STATE_FAILED').toBe(true);
    }
    expect(await alice('SELECT a FROM dune.alice.dataset_kept ORDER BY a')).toEqual([{ a: 1 }, { a: 2 }]);
    const made = await alice('SELECT * FROM made');
    expect(made.state).toBe('QUERY_STATE_FAILED');
    expect(made.error.message).toMatch(/made/);
    const macro = await alice('SELECT shadow(1) AS y');
    expect(macro.state).toBe('QUERY_STATE_FAILED');
  });

  it('refuses statements that change data or settings, by their type', async () => {
    for (const sql of [
      'CREATE TABLE t (x INT)',
      'DROP VIEW dune.alice.dataset_kept',
      'SET threads = 1',
      'LOAD json',
      'BEGIN TRANSACTION',
    ]) {
      const status = await alice(sql);
      expect(status.state).toBe('QUERY_STATE_FAILED');
      expect(status.error.message).toContain('only queries that read data');
    }
    expect(await alice('SELECT count(*)::INT AS n FROM dune.alice.dataset_kept')).toEqual([{ n: 2 }]);
  });
});
