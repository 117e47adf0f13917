import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CacheStatus, ExportProgress, SyncState } from '../../../../main/contract/index.ts';
import { ActivityLog } from '../../../../main/core/logging/activity-log.ts';
import { createLogger } from '../../../../main/core/logging/logger.ts';

// Which changes make a line: the ends of a period, not every retry or page in between.

let dir: string;
let clock: number;
let activity: ActivityLog;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-activity-'));
  clock = Date.parse('2026-01-02T10:00:00Z');
  const now = () => new Date(clock);
  activity = new ActivityLog(createLogger({ dir, now }), (id) => (id === 'a1' ? 'Team' : id), now);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The lines written, without their time. */
const lines = () =>
  readdirSync(dir)
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line !== '')
    .map((line) => line.slice(line.indexOf(' ') + 1));

const sync = (status: SyncState['status'], reason: string | null = null): SyncState => ({
  accountId: 'a1',
  status,
  lastSyncedAt: null,
  offlineSince: status === 'offline' || status === 'key_refused' ? new Date(clock).toISOString() : null,
  reason,
  nextRetryAt: null,
});
const cache = (state: CacheStatus['state'], rowsLoaded: number, error: string | null = null): CacheStatus => ({
  accountId: 'a1',
  executionId: 'E1',
  state,
  rowsLoaded,
  totalRowCount: 100,
  bytes: null,
  fetchedAt: null,
  expiresAt: null,
  lastUsedAt: null,
  isPartial: false,
  budgetBytes: 1,
  error,
});
const progress = (state: ExportProgress['state'], rowsWritten: number, error: string | null = null): ExportProgress => ({
  exportId: 'X1',
  state,
  rowsWritten,
  totalRowCount: 100,
  bytesWritten: rowsWritten * 10,
  fromCache: false,
  error,
});

describe('the activity log', () => {
  it('logs an offline period once at each end, however many retries, and a refused key as a period of its own', () => {
    activity.sync(sync('online'));
    activity.sync(sync('offline', 'ECONNREFUSED'));
    clock += 30_000;
    activity.sync(sync('checking'));
    activity.sync(sync('offline', 'ECONNREFUSED again'));
    activity.sync(sync('key_refused', 'The service refused this API key'));
    clock += 15_000;
    activity.sync(sync('online'));
    expect(lines()).toEqual([
      'WARN Team: offline since 2026-01-02T10:00:00.000Z: ECONNREFUSED',
      'WARN Team: the service refuses the key since 2026-01-02T10:00:30.000Z: The service refused this API key',
      'INFO Team: online again after 15 s (key refused since 2026-01-02T10:00:30.000Z)',
    ]);
  });

  it('logs a download that failed with the rows it had, started again, cancelled and done', () => {
    for (const rows of [10, 20, 30]) activity.download(cache('downloading', rows));
    activity.download(cache('failed', 0, 'socket hang up'));
    activity.download(cache('downloading', 0));
    activity.download(cache('downloading', 40));
    activity.download(cache('cancelled', 40));
    activity.download(cache('downloading', 0));
    activity.download(cache('cached', 100));
    expect(lines()).toEqual([
      'WARN Team: download of result E1 failed after 30 of 100 rows: socket hang up',
      'INFO Team: download of result E1 started again',
      'INFO Team: download of result E1 cancelled after 40 of 100 rows',
      'INFO Team: download of result E1 started again',
      'INFO Team: download of result E1 done: 100 rows',
    ]);
  });

  it('logs no line for a download that simply ends', () => {
    activity.download(cache('downloading', 50));
    activity.download(cache('cached', 100));
    expect(lines()).toEqual([]);
  });

  it("logs an export's start and its failure with the reason", () => {
    activity.exportStarted('X1', { accountId: 'a1', executionId: 'E1', format: 'parquet', fileName: '/home/me/out.parquet' });
    activity.exportProgress(progress('running', 0));
    activity.exportProgress(progress('running', 50));
    activity.exportProgress(progress('failed', 50, 'ENOSPC: no space left on device'));
    expect(lines()).toEqual([
      'INFO Team: export X1 of result E1 as parquet to /home/me/out.parquet started',
      'WARN Team: export X1 of result E1 as parquet to /home/me/out.parquet failed after 50 rows, 500 bytes: ENOSPC: no space left on device',
    ]);
  });
});
