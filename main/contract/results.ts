import { z } from 'zod';
import { accountId, executionId, ResultPage } from './models.ts';
import { PivotExportRequest, PivotRequest, PivotTable } from './pivot-models.ts';
import {
  CacheStatus,
  CacheUsage,
  ChartData,
  ChartRequest,
  ColumnProfile,
  ExportProgress,
  ExportRequest,
  ExportStarted,
  ResultSample,
  resultView,
  RunComparison,
} from './result-models.ts';

// The results' channels: pages, samples, profiles, comparisons, charts, the cache and exports.

export const resultsChannels = {
  'results:getRows': {
    request: z
      .object({
        accountId,
        executionId,
        startRow: z.number().int().min(0),
        endRow: z.number().int().min(1),
        /** Read a truncated (COMPLETED_PARTIAL) result; without it such a result answers `partial_result`. */
        allowPartial: z.boolean().optional(),
        /**
         * In the service's language, as `filters`, `sort_by`, `columns`: answered from the cache when it
         * holds the whole result, else by the service, the same either way. A mistake in them answers
         * `bad_request` with `details: {part, position}` (1-based) when the position is known.
         */
        ...resultView,
      })
      .strict()
      .refine((r) => r.endRow > r.startRow && r.endRow - r.startRow <= 10_000, {
        message: 'endRow must be above startRow, by at most 10000 rows',
        path: ['endRow'],
      }),
    response: ResultPage,
  },
  /**
   * About `sampleCount` rows drawn at random (each call differs); from the cache when it holds the
   * result. With `filters`, from the rows that pass them: only the cache can, the service samples
   * only a whole result (bad_request, details `{ wholeResultOnly: true }`).
   */
  'results:sample': {
    request: z
      .object({
        accountId,
        executionId,
        sampleCount: z.number().int().min(1).max(10_000),
        columns: resultView.columns,
        filters: resultView.filters,
        allowPartial: z.boolean().optional(),
      })
      .strict(),
    response: ResultSample,
  },
  /**
   * A column's profile, from the cached result; else on a random sample the service draws, which
   * it draws of whole results only (with `filters`: bad_request, details `{ wholeResultOnly: true }`).
   */
  'results:profile': {
    request: z.object({ accountId, executionId, column: z.string().min(1).max(500), filters: resultView.filters }).strict(),
    response: ColumnProfile,
  },
  /**
   * A pivot of the cached result (not_found until it is cached: `results:cache` brings it), with
   * the view's filters applied before grouping; bad_request says why a pivot cannot be made.
   */
  'results:pivot': {
    request: PivotRequest.extend({ accountId, executionId }).strict(),
    response: PivotTable,
  },
  /**
   * Two finished runs compared from the cache (not_found, details `{ notCached: [ids] }`, until
   * both are there: `results:cache` brings them); with `key`, row by row.
   */
  'results:compare': {
    request: z.object({ accountId, a: executionId, b: executionId, key: z.string().min(1).max(500).optional() }).strict(),
    response: RunComparison,
  },
  'results:cacheStatus': {
    request: z.object({ accountId, executionId }).strict(),
    response: CacheStatus,
  },
  /**
   * Downloads the whole result into the cache in the background when it fits the budget (answers at
   * once; progress comes as `results:cacheStatus` events). Answers `too_large` instead when it does not.
   */
  'results:cache': {
    request: z.object({ accountId, executionId, allowPartial: z.boolean().optional() }).strict(),
    response: CacheStatus,
  },
  /** Stops a download; the cache stays as it was before it. */
  'results:cacheCancel': {
    request: z.object({ accountId, executionId }).strict(),
    response: CacheStatus,
  },
  /** The cache's budget (a setting, 2 GB by default) and what it holds; a new budget evicts past it at once. */
  'results:cacheSettings': {
    request: z
      .object({
        budgetBytes: z
          .number()
          .int()
          .min(0)
          .max(2 ** 50)
          .optional(),
      })
      .strict(),
    response: CacheUsage,
  },
  /** Aggregated in main from the cached result (at most `maxPoints`, 2000 by default); `not_found` when not cached. */
  'results:chart': {
    request: ChartRequest,
    response: ChartData,
  },
  /**
   * A CSV of the whole result or of the view, streamed from the cache when it holds the result,
   * else from the service. Parquet and JSON lines are written from the cache only: a result not in
   * it is downloaded into it first (state `caching`); one larger than the cache's budget is refused. The Electron host asks where to save it first (closing the dialog answers
   * `cancelled`); the browser host answers a download URL. Progress comes as `results:exportProgress`.
   */
  'results:export': {
    request: ExportRequest,
    response: ExportStarted,
  },
  /** The pivot's table as shown, to a file, followed as any export (`results:exportProgress`). */
  'results:exportPivot': {
    request: PivotExportRequest.extend({ accountId, executionId }).strict(),
    response: ExportStarted,
  },
  'results:exportCancel': {
    request: z.object({ exportId: z.string().min(1).max(100) }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
} as const;

export const resultsEvents = {
  /** A result download into the cache moved on, finished, failed or was cancelled. */
  'results:cacheStatus': CacheStatus,
  'results:exportProgress': ExportProgress,
} as const;
