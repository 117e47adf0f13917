import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CacheStatus } from '../../../../main/contract/index.ts';
import { COMMIT_EVERY } from '../../../../main/core/cache/download.ts';
import { openResultCache } from '../../../../main/core/cache/result-cache.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { finishedSql } from './finished-run.ts';

// A download commits its loads, with where they end, only once several row groups of rows (or a
// couple of seconds) have gone in since the last commit: each commit holds up the loads, which a
// download over a fast link waits for.

const TOTAL = 700_000;
let dir: string;
let service: RunningService;
let executionId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-commits-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0 });
  executionId = await finishedSql(service, `SELECT range AS n FROM range(${TOTAL})`);
});

afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a download's commits", () => {
  it('come once several row groups, or seconds, have been loaded since the last', async () => {
    // each commit records where the rows end first: its rows and time, as the download wrote them
    const records: { rows: number; at: number }[] = [];
    const run = DuckDBConnection.prototype.run;
    vi.spyOn(DuckDBConnection.prototype, 'run').mockImplementation(function (this: DuckDBConnection, sql: string, values?: unknown) {
      if (sql.startsWith('INSERT INTO kept_downloads') && Array.isArray(values))
        records.push({ rows: Number(values[3]), at: Date.parse(String(values[4])) });
      return run.call(this, sql, values as never);
    });
    let ended: (status: CacheStatus) => void = () => undefined;
    const done = new Promise<CacheStatus>((resolve) => (ended = resolve));
    const startedAt = Date.now();
    const cache = await openResultCache({ dir: join(dir, 'cache'), onStatus: (s) => s.state !== 'downloading' && ended(s) });
    try {
      const client = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
      expect((await cache.start('local', client, executionId, false)).ok).toBe(true);
      expect(await done).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    } finally {
      await cache.close();
      vi.restoreAllMocks();
    }
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => Number.isFinite(record.at))).toBe(true);
    // the last is the download's end, whatever was loaded since the one before
    const during = records.filter((record) => record.rows < TOTAL);
    let before = { rows: 0, at: startedAt };
    for (const record of during) {
      const enough = record.rows - before.rows >= COMMIT_EVERY.rows || record.at - before.at >= COMMIT_EVERY.millis;
      expect({ ...record, enough }).toMatchObject({ enough: true });
      before = record;
    }
  });
});
