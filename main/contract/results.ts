import { z } from 'zod';
import { accountId, CellValue, FromCache } from './models.ts';

// Shapes of the result channels beyond the grid page: the cache, samples, charts and exports.

const executionId = z.string().min(1).max(200);

/** `filters`, `sort_by` and `columns` in the service's language; empty means not given. */
export const resultView = {
  filters: z.string().max(10_000).optional(),
  sortBy: z.string().max(2_000).optional(),
  columns: z.string().max(10_000).optional(),
};

/**
 * absent: not cached (nor asked for); downloading: on its way, `rowsLoaded` of `totalRowCount`;
 * cached: held whole since `fetchedAt`; too_large: above the budget, so it is read page by page
 * from the service; failed / cancelled: the last download did not finish (the cache is as before).
 */
export const CacheState = z.enum(['absent', 'downloading', 'cached', 'too_large', 'failed', 'cancelled']);

export const CacheStatus = z.object({
  accountId,
  executionId: z.string(),
  state: CacheState,
  rowsLoaded: z.number().int().nonnegative(),
  totalRowCount: z.number().int().nullable(),
  /** The result's size as the service measures it; what the budget is compared with. */
  bytes: z.number().nullable(),
  fetchedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  isPartial: z.boolean(),
  budgetBytes: z.number(),
  error: z.string().nullable(),
});
export type CacheStatus = z.infer<typeof CacheStatus>;

export const CacheUsage = z.object({
  budgetBytes: z.number(),
  /** The cached results' sizes as the service measured them. */
  usedBytes: z.number(),
  entryCount: z.number().int().nonnegative(),
});

export const ResultSample = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(CellValue)),
  /** Rows of the whole result the sample was drawn from. */
  totalRowCount: z.number().int().nonnegative(),
  fromCache: FromCache.optional(),
});
export type ResultSample = z.infer<typeof ResultSample>;

export const ChartAggregation = z.enum(['count', 'sum', 'avg', 'min', 'max']);

export const ChartRequest = z
  .object({
    accountId,
    executionId,
    x: z.string().min(1).max(500),
    /** Aggregated per x (and group); may be empty with `count`, which then counts rows. */
    y: z.array(z.string().min(1).max(500)).max(8),
    groupBy: z.string().min(1).max(500).nullable().optional(),
    aggregation: ChartAggregation,
    filters: resultView.filters,
    maxPoints: z.number().int().min(10).max(2_000).optional(),
  })
  .strict()
  .refine((r) => r.y.length > 0 || r.aggregation === 'count', { message: 'give at least one y column (or count rows)', path: ['y'] });

export const ChartData = z.object({
  x: z.object({ name: z.string(), type: z.string(), kind: z.enum(['time', 'number', 'text']) }),
  /** How x was bucketed: a time unit (`hour`, `day`…), `bins of <width>` for numbers, null when not. */
  bucket: z.string().nullable(),
  yColumns: z.array(z.string()),
  groupBy: z.string().nullable(),
  aggregation: ChartAggregation,
  /** One row per point, ordered by x: [x, group (null without groupBy), one value per y column (the count when y is empty)]. */
  rows: z.array(z.array(CellValue)),
  /** Some categories or groups were left out to stay within the point budget. */
  truncated: z.boolean(),
  fromCache: FromCache,
});
export type ChartData = z.infer<typeof ChartData>;

/** csv as the service writes it; parquet and jsonl (one JSON object a line) keep the cache's types and exact values. */
export const ExportFormat = z.enum(['csv', 'parquet', 'jsonl']);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** What a person reads in the Export control, the file's extension, and what a download is sent as. */
export const EXPORT_FORMATS: Record<ExportFormat, { label: string; extension: string; mediaType: string }> = {
  csv: { label: 'CSV', extension: 'csv', mediaType: 'text/csv; charset=utf-8' },
  parquet: { label: 'Parquet', extension: 'parquet', mediaType: 'application/vnd.apache.parquet' },
  jsonl: { label: 'JSON lines', extension: 'jsonl', mediaType: 'application/jsonl; charset=utf-8' },
};

export const ExportRequest = z
  .object({
    accountId,
    executionId,
    /** `view` applies the filters, sort and columns given; `all` is the whole result as it is. */
    scope: z.enum(['all', 'view']),
    /** csv when not given. */
    format: ExportFormat.optional(),
    ...resultView,
    allowPartial: z.boolean().optional(),
    /** A suggestion for the file's name; the host's dialog (or the browser) has the last word. */
    fileName: z.string().min(1).max(200).optional(),
  })
  .strict();

/** file: written by main to the path the user chose; download: the renderer opens `url` (same origin) to receive the file. */
export const ExportDelivery = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), path: z.string() }),
  z.object({ kind: z.literal('download'), url: z.string() }),
]);

export const ExportStarted = z.object({ exportId: z.string(), delivery: ExportDelivery });

export const ExportProgress = z.object({
  exportId: z.string(),
  /**
   * waiting: a download URL not opened yet. caching: a Parquet or JSON lines export waits for the
   * result to be downloaded into the cache, which writes it; `rowsWritten` counts the rows downloaded meanwhile.
   */
  state: z.enum(['waiting', 'caching', 'running', 'done', 'failed', 'cancelled']),
  rowsWritten: z.number().int().nonnegative(),
  totalRowCount: z.number().int().nullable(),
  bytesWritten: z.number().int().nonnegative(),
  fromCache: z.boolean(),
  error: z.string().nullable(),
});
export type ExportProgress = z.infer<typeof ExportProgress>;
