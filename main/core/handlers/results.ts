import { missingTable } from '../../common/duckdb-errors.ts';
import { fail, ok, type Result, type ResultPage } from '../../contract/index.ts';
import { findAccount, withAccount } from '../accounts/find-account.ts';
import type { CacheSettings } from '../cache/cache-settings.ts';
import { readCachedPage, readCachedSample } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import { chartFromCache } from '../charts/chart-query.ts';
import { compareCached } from '../compare/compare-runs.ts';
import { startExport, startPivotExport, type ExportStartOptions } from '../export/export-start.ts';
import { isFailure, serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import { pivotFromCache } from '../pivot/pivot-table.ts';
import { profileFromCache } from '../profile/column-profile.ts';
import { profileFromSample } from '../profile/sampled-profile.ts';
import { cachedEntry, type ReadRequest } from '../results/cached-entry.ts';
import { partialFailure, readRowRange } from '../results/read-range.ts';
import { readSample, WHOLE_RESULT_ONLY } from '../results/read-sample.ts';
import { checkSyntax, viewOf } from '../results/view.ts';
import type { ResultView, ServiceClient } from '../service-client/index.ts';
import type { SettingsStore } from '../settings/settings-store.ts';

// The result channels. Whatever the cache holds whole is answered from it (so it keeps working
// when the service cannot be reached); everything else goes to the service, with the same answers.

type ResultChannels =
  | 'results:getRows'
  | 'results:sample'
  | 'results:cacheStatus'
  | 'results:cache'
  | 'results:cacheCancel'
  | 'results:cacheSettings'
  | 'results:chart'
  | 'results:profile'
  | 'results:compare'
  | 'results:pivot'
  | 'results:export'
  | 'results:exportPivot'
  | 'results:exportCancel';

export interface ResultHandlerOptions extends ExportStartOptions {
  cacheSettings: SettingsStore<CacheSettings>;
}

type Reads = Pick<ResultHandlerOptions, 'accounts' | 'cache'>;

export function resultHandlers(options: ResultHandlerOptions): Pick<Handlers, ResultChannels> {
  return { ...readHandlers(options), ...cacheHandlers(options), ...cachedOnlyHandlers(options.cache), ...exportHandlers(options) };
}

/** Rows, samples and profiles: from the cache when it holds the result, else from the service. */
function readHandlers(reads: Reads): Pick<Handlers, 'results:getRows' | 'results:sample' | 'results:profile'> {
  const { cache } = reads;
  return {
    'results:getRows': async ({ accountId, executionId, startRow, endRow, allowPartial = false, ...request }) => {
      const view = viewOf(request);
      const bad = checkSyntax(view);
      if (bad) return bad;
      return answer(
        reads,
        { accountId, executionId, allowPartial },
        (entry) => readCachedPage(cache.db, entry, view, startRow, endRow),
        async (client) =>
          (await keptPage(cache, { accountId, executionId, allowPartial }, view, startRow, endRow)) ??
          readRowRange(client, { executionId, startRow, endRow, allowPartial, view }),
      );
    },

    'results:sample': async ({ accountId, executionId, sampleCount, columns, filters, allowPartial = false }) => {
      const view = viewOf({ columns, filters });
      const bad = checkSyntax(view);
      if (bad) return bad;
      return answer(
        reads,
        { accountId, executionId, allowPartial },
        (entry) => readCachedSample(cache.db, entry, sampleCount, view),
        async (client) =>
          view.filters === undefined
            ? readSample(client, { executionId, sampleCount, columns: view.columns, allowPartial })
            : WHOLE_RESULT_ONLY,
      );
    },

    'results:profile': async ({ accountId, executionId, column, filters }) => {
      const view = viewOf({ filters });
      const bad = checkSyntax(view);
      if (bad) return bad;
      return answer(
        reads,
        { accountId, executionId, allowPartial: false },
        (entry) => profileFromCache(cache.db, entry, column, view.filters),
        async (client) => (view.filters === undefined ? profileFromSample(cache.db, client, executionId, column) : WHOLE_RESULT_ONLY),
      );
    },
  };
}

/** The cache's downloads and budget. */
function cacheHandlers(
  options: ResultHandlerOptions,
): Pick<Handlers, 'results:cacheStatus' | 'results:cache' | 'results:cacheCancel' | 'results:cacheSettings'> {
  const { accounts, cache } = options;
  return {
    'results:cacheStatus': async ({ accountId, executionId }) => ok(await cache.status(accountId, executionId)),

    'results:cache': withAccount(accounts, async (account, { accountId, executionId, allowPartial = false }) => {
      const started = await cache.start(accountId, account.client, executionId, allowPartial);
      if (started.ok) return ok(started.data);
      return started.error.kind === 'partial_result' ? partialFailure(null) : serviceFailure(started.error);
    }),

    'results:cacheCancel': async ({ accountId, executionId }) => ok(await cache.cancel(accountId, executionId)),

    'results:cacheSettings': async ({ budgetBytes }) => {
      if (budgetBytes !== undefined) {
        options.cacheSettings.write({ budgetBytes });
        await cache.setBudget(budgetBytes);
      }
      return ok(await cache.usage());
    },
  };
}

/** Charts and comparisons, which only the cached result can answer. */
function cachedOnlyHandlers(cache: ResultCache): Pick<Handlers, 'results:chart' | 'results:compare' | 'results:pivot'> {
  return {
    'results:pivot': async ({ accountId, executionId, filters, ...settings }) => {
      const entry = await cache.use(accountId, executionId);
      if (entry === null) {
        return fail('not_found', 'Pivots are computed from the cached result, and this result is not cached (yet): cache it first.');
      }
      return pivotFromCache(cache.db, entry, settings, viewOf({ filters }).filters);
    },

    'results:chart': async ({ accountId, executionId, filters, groupBy, maxPoints = 2_000, ...chart }) => {
      const entry = await cache.use(accountId, executionId);
      if (entry === null) {
        return fail('not_found', 'Charts are drawn from the cached result, and this result is not cached (yet): cache it first.');
      }
      return chartFromCache(cache.db, entry, { ...chart, groupBy: groupBy ?? null, filters: viewOf({ filters }).filters, maxPoints });
    },

    'results:compare': async ({ accountId, a, b, key }) => {
      const [first, second] = [await cache.use(accountId, a), await cache.use(accountId, b)];
      if (!first || !second) {
        const notCached = [...(first ? [] : [a]), ...(second ? [] : [b])];
        return fail('not_found', 'Runs are compared in the cache, and not both are there yet: keep them in the cache first.', {
          notCached,
        });
      }
      if (first.isPartial || second.isPartial)
        return fail('bad_request', 'A run the service truncated cannot be compared: its rows are not all there.');
      return compareCached(cache.db, { a: first, b: second }, key ?? null);
    },
  };
}

/**
 * Answers from the cache when it holds the result whole (a partial one only when the request
 * allows it), else from the service; also from the service when the entry was evicted between
 * being found and being read.
 */
async function answer<T>(
  { accounts, cache }: Reads,
  request: ReadRequest,
  fromCache: (entry: CacheEntry) => Promise<Result<T>>,
  fromService: (client: ServiceClient) => Promise<Result<T>>,
): Promise<Result<T>> {
  const entry = await cachedEntry(cache, request);
  if (entry !== null && isFailure(entry)) return entry;
  if (entry !== null) {
    try {
      return await fromCache(entry);
    } catch (error) {
      if (!(error instanceof Error && missingTable(error.message) !== null)) throw error;
    }
  }
  const account = findAccount(accounts, request.accountId);
  return isFailure(account) ? account : fromService(account.client);
}

/**
 * A page of the rows an interrupted download kept, so that they are read while the service does
 * not answer: only of the result in its own order (a filter or sort needs every row), and only
 * when the kept rows hold the whole page; null otherwise, or when the table went meanwhile.
 */
async function keptPage(
  cache: ResultCache,
  request: ReadRequest,
  view: ResultView,
  startRow: number,
  endRow: number,
): Promise<Result<ResultPage> | null> {
  if (view.filters !== undefined || view.sortBy !== undefined) return null;
  const kept = await cache.interruptedRows(request.accountId, request.executionId);
  if (kept === null || (kept.entry.isPartial && !request.allowPartial)) return null;
  if (Math.min(endRow, kept.entry.rowCount) > kept.rows) return null;
  try {
    return await readCachedPage(cache.db, kept.entry, view, startRow, endRow);
  } catch (error) {
    if (error instanceof Error && missingTable(error.message) !== null) return null;
    throw error;
  }
}

function exportHandlers(options: ResultHandlerOptions): Pick<Handlers, 'results:export' | 'results:exportPivot' | 'results:exportCancel'> {
  return {
    'results:export': async (request) => {
      const started = await startExport(options, request);
      if (!started.ok) options.activity?.exportRefused(request, started.error);
      return started;
    },

    'results:exportPivot': async (request) => startPivotExport(options, request),

    'results:exportCancel': async ({ exportId }) => ok({ cancelled: options.exports.cancel(exportId) }),
  };
}
