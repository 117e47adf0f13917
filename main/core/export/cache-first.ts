import { setTimeout as pause } from 'node:timers/promises';
import { fail, ok, type Result } from '../../contract/index.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import { serviceFailure } from '../failures.ts';
import { partialFailure } from '../results/read-range.ts';
import type { ServiceClient } from '../service-client/index.ts';
import { ExportAborted, type ExportSource, type FileSource } from './export-sources.ts';

// Parquet and JSON lines are written by DuckDB from the cache, where the result has its types. A
// result not in the cache yet is downloaded into it first, the same download the grid makes (so
// the export's wait is never wasted), and the export follows it. Cancelling the export stops a
// download it started itself; one that was already under way goes on.

const POLL_MS = 250;

/** Why a download the export waited for ended without the result, when it gave no reason of its own. */
const DOWNLOAD_ENDED: Record<string, string> = {
  cancelled: 'The download into the cache was cancelled.',
  too_large: "The result is larger than the cache's budget.",
  interrupted: 'The download into the cache was interrupted before the last row.',
};

export async function cacheFirstSource(
  cache: ResultCache,
  client: ServiceClient,
  request: { accountId: string; executionId: string; allowPartial: boolean },
  fromEntry: (entry: CacheEntry) => Promise<Result<FileSource>>,
): Promise<Result<ExportSource>> {
  const { accountId, executionId, allowPartial } = request;
  const before = await cache.status(accountId, executionId);
  const started = await cache.start(accountId, client, executionId, allowPartial);
  if (!started.ok) return started.error.kind === 'partial_result' ? partialFailure(null) : serviceFailure(started.error);
  const { data: status } = started;
  if (status.state === 'too_large') {
    return fail(
      'bad_request',
      `Parquet and JSON lines are written from the cache, and this result${status.bytes === null ? '' : ` (${status.bytes.toLocaleString('en-US')} bytes)`} is larger than the cache's budget (${status.budgetBytes.toLocaleString('en-US')} bytes): raise the budget in Settings, or export CSV.`,
    );
  }
  const fromCache = async (): Promise<Result<FileSource>> => {
    const entry = await cache.use(accountId, executionId);
    return entry === null
      ? fail('not_found', 'The result was not kept in the cache, so it could not be written; try again.')
      : fromEntry(entry);
  };
  if (status.state !== 'downloading') return fromCache();
  return ok({
    kind: 'caching',
    totalRowCount: status.totalRowCount,
    fromCache: false,
    async cached(signal, onRows) {
      try {
        for (;;) {
          const now = await cache.status(accountId, executionId);
          if (now.state !== 'downloading') {
            if (now.state !== 'cached') throw new Error(now.error ?? DOWNLOAD_ENDED[now.state] ?? 'The download into the cache stopped.');
            const source = await fromCache();
            if (!source.ok) throw new Error(source.error.message);
            return source.data;
          }
          onRows(now.rowsLoaded);
          await pause(POLL_MS, undefined, { signal });
        }
      } catch (error) {
        if (!signal.aborted) throw error;
        if (before.state !== 'downloading') await cache.cancel(accountId, executionId);
        throw new ExportAborted();
      }
    },
  });
}
