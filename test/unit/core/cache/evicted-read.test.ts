import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccountRegistry } from '../../../../main/core/accounts/registry.ts';
import { openCacheDb } from '../../../../main/core/cache/cache-db.ts';
import type { CacheEntry } from '../../../../main/core/cache/manifest.ts';
import type { ResultCache } from '../../../../main/core/cache/result-cache.ts';
import { createExportRuns } from '../../../../main/core/export/exports.ts';
import { resultHandlers } from '../../../../main/core/handlers/results.ts';
import type { ResultsPage, ServiceClient } from '../../../../main/core/service-client/index.ts';

// An entry evicted between being found and being read: the page comes from the service instead.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-evicted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a read of an entry evicted meanwhile', () => {
  it('is answered by the service', async () => {
    const db = await openCacheDb(dir);
    const gone: CacheEntry = {
      accountId: 'local',
      executionId: 'E1',
      tableName: 'r_evicted',
      columns: [{ name: 'n', type: 'BIGINT' }],
      wireTypes: ['bigint'],
      rowCount: 3,
      bytes: 24,
      isPartial: false,
      expiresAt: null,
      fetchedAt: '2030-01-01T00:00:00.000Z',
      lastUsed: '2030-01-01T00:00:00.000Z',
    };
    const cache = { db, use: async () => gone, interruptedRows: async () => null } as unknown as ResultCache;
    const page: ResultsPage = {
      executionId: 'E1',
      queryId: 1,
      state: 'QUERY_STATE_COMPLETED',
      isExecutionFinished: true,
      submittedAt: null,
      startedAt: null,
      endedAt: null,
      expiresAt: null,
      cancelledAt: null,
      error: null,
      rows: [{ n: 1 }, { n: 2 }],
      metadata: {
        columnNames: ['n'],
        columnTypes: ['bigint'],
        rowCount: 2,
        resultSetBytes: 16,
        totalRowCount: 3,
        totalResultSetBytes: 24,
        datapointCount: 2,
        pendingTimeMillis: 0,
        executionTimeMillis: 1,
      },
      nextOffset: null,
      nextUri: null,
    };
    const client = { results: { page: async () => ({ ok: true, data: page }) } } as unknown as ServiceClient;
    const accounts = { get: () => ({ account: { label: 'Local' }, client, keyProblem: null }) } as unknown as AccountRegistry;
    const handlers = resultHandlers({
      accounts,
      cache,
      cacheSettings: { read: () => ({ budgetBytes: 1 }), write: () => undefined },
      exports: createExportRuns({ emit: () => undefined, scratchDir: join(dir, 'exports') }),
    });
    const read = await handlers['results:getRows']({ accountId: 'local', executionId: 'E1', startRow: 0, endRow: 2 });
    expect(read).toEqual({
      ok: true,
      data: { columns: [{ name: 'n', type: 'bigint' }], rows: [[1], [2]], startRow: 0, totalRowCount: 3, isPartial: false },
    });
    await db.close();
  });
});
