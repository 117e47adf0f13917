import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../../../main/contract/index.ts';
import type { CacheEntry } from '../../../../main/core/cache/manifest.ts';
import { nameTables } from '../../../../main/core/local-sql/local-tables.ts';

// The names local SQL gives cached results: after the query and the run's minute, the latest run of
// a query also as `q_<id>_latest` and by the query's name, runs of no known query by their id.

const entry = (executionId: string, fetchedAt = '2026-11-26T10:00:00.000Z'): CacheEntry => ({
  accountId: 'a',
  executionId,
  tableName: `r_${executionId}`,
  columns: [{ name: 'x', type: 'BIGINT' }],
  wireTypes: ['bigint'],
  rowCount: 1,
  bytes: 8,
  isPartial: false,
  expiresAt: null,
  fetchedAt,
  lastUsed: fetchedAt,
});

const run = (executionId: string, queryId: number, endedAt: string, queryName?: string): ExecutionRecord => ({
  accountId: 'a',
  executionId,
  queryId,
  parameters: {},
  state: 'QUERY_STATE_COMPLETED',
  isFinished: true,
  submittedAt: endedAt,
  endedAt,
  error: null,
  totalRowCount: 1,
  queryName,
});

describe('nameTables', () => {
  it('names runs by query and minute, newest first, with the latest run aliased', () => {
    const tables = nameTables(
      [entry('e1'), entry('e2'), entry('e3')],
      [
        run('e1', 1234, '2026-11-26T14:05:10.000Z', 'Daily volume (by chain)'),
        run('e2', 1234, '2026-11-26T15:30:00.000Z', 'Daily volume (by chain)'),
        run('e3', 1234, '2026-11-26T15:30:40.000Z'),
      ],
    );
    expect(tables.map((t) => [t.name, t.aliases])).toEqual([
      ['q_1234_run_20261126_1530', ['q_1234_latest']],
      ['q_1234_run_20261126_1530_2', []],
      ['q_1234_run_20261126_1405', []],
    ]);
  });

  it('aliases the latest run by its query name, unless another table has that name', () => {
    const tables = nameTables(
      [entry('e1'), entry('e2')],
      [run('e1', 7, '2026-11-26T14:05:10.000Z', 'Wallets'), run('e2', 8, '2026-11-26T14:00:00.000Z', 'wallets!')],
    );
    expect(tables.map((t) => t.aliases)).toEqual([
      ['q_7_latest', 'wallets'],
      ['q_8_latest', 'wallets_2'],
    ]);
  });

  it('names a run the app did not start by its execution id, and leaves local results out', () => {
    const tables = nameTables([entry('01HX-ABC'), entry('local-xyz')], []);
    expect(tables.map((t) => [t.name, t.aliases, t.queryId])).toEqual([['run_01hx_abc', [], null]]);
  });
});
