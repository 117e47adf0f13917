import type { CacheStatus } from '../../contract/index.ts';
import type { ResultShape } from './download.ts';
import type { CacheEntry } from './manifest.ts';

// A result's status as the cache tells it, from where the result is: nowhere, on its way, or held
// whole. How a download that is no longer under way ended is laid over the first (download-outcomes.ts).

export function absentStatus(accountId: string, executionId: string, budgetBytes: number): CacheStatus {
  return {
    accountId,
    executionId,
    state: 'absent',
    rowsLoaded: 0,
    totalRowCount: null,
    bytes: null,
    fetchedAt: null,
    expiresAt: null,
    lastUsedAt: null,
    isPartial: false,
    budgetBytes,
    error: null,
  };
}

export function downloadingStatus(shape: ResultShape, rowsLoaded: number, budgetBytes: number): CacheStatus {
  return {
    ...absentStatus(shape.accountId, shape.executionId, budgetBytes),
    state: 'downloading',
    rowsLoaded,
    totalRowCount: shape.totalRowCount,
    bytes: shape.totalBytes,
    expiresAt: shape.expiresAt,
    isPartial: shape.isPartial,
  };
}

/** `notFitting`: the counts of values that do not fit their column's type (values-not-fitting.ts). */
export function cachedStatus(entry: CacheEntry, notFitting: number[] | null, budgetBytes: number): CacheStatus {
  return {
    ...absentStatus(entry.accountId, entry.executionId, budgetBytes),
    ...(notFitting ? { valuesNotFitting: notFitting } : {}),
    state: 'cached',
    rowsLoaded: entry.rowCount,
    totalRowCount: entry.rowCount,
    bytes: entry.bytes,
    fetchedAt: entry.fetchedAt,
    expiresAt: entry.expiresAt,
    lastUsedAt: entry.lastUsed,
    isPartial: entry.isPartial,
  };
}
