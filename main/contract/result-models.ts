import { z } from 'zod';
import { accountId, CellValue, executionId, FromCache } from './models.ts';

// Shapes of the result channels beyond the grid page: the cache, samples, charts and exports.

/** `filters`, `sort_by` and `columns` in the service's language; empty means not given. */
export const resultView = {
  filters: z.string().max(10_000).optional(),
  sortBy: z.string().max(2_000).optional(),
  columns: z.string().max(10_000).optional(),
};

/**
 * absent: not cached (nor asked for); downloading: on its way, `rowsLoaded` of `totalRowCount`;
 * cached: held whole since `fetchedAt`; too_large: above the budget, so it is read page by page
 * from the service; interrupted: the service stopped answering during the download (`error` says
 * how), which goes on by itself from the `rowsLoaded` kept when the service answers again, or,
 * refused for the service's rate limit, at `resumesAt`; failed / cancelled: the last download did
 * not finish (the cache is as before).
 */
export const CacheState = z.enum(['absent', 'downloading', 'cached', 'too_large', 'interrupted', 'failed', 'cancelled']);

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
  /** An interrupted download waiting out the service's rate limit goes on by itself at this time (ISO 8601). */
  resumesAt: z.string().optional(),
  /**
   * For each column, in the result's order, how many values do not fit its declared type (text
   * in a uint256 column): kept and shown as received, and counted in the result's footer. Absent
   * until the cache has counted them.
   */
  valuesNotFitting: z.array(z.number().int().nonnegative()).optional(),
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
  /** Rows the sample was drawn from: the whole result's, or the filtered view's when filters were given. */
  totalRowCount: z.number().int().nonnegative(),
  fromCache: FromCache.optional(),
});
export type ResultSample = z.infer<typeof ResultSample>;

/** One column of a result described: over the whole result, the rows its filters let through, or a sample. */
export const ColumnProfile = z.object({
  column: z.string(),
  type: z.string(),
  /** number and time get a mean (number only), quartiles and a histogram; text its top values only. */
  kind: z.enum(['number', 'time', 'text']),
  /** Rows profiled: the whole result's, or the filtered view's. */
  rowCount: z.number().int().nonnegative(),
  nullCount: z.number().int().nonnegative(),
  /**
   * Exact up to 1,000,000 values, estimated beyond (never above the rows' count); an estimate's
   * `error` is its relative margin at 95% (0.005: within 0.5% of the true count).
   */
  distinct: z.object({ count: z.number().int().nonnegative(), exact: z.boolean(), error: z.number().nonnegative().optional() }),
  min: CellValue,
  max: CellValue,
  mean: z.number().nullable(),
  /** 25th, 50th and 75th percentiles of numbers and times; a number's are estimated past 100,000 values. */
  quartiles: z.object({ values: z.tuple([CellValue, CellValue, CellValue]), exact: z.boolean() }).nullable(),
  /** The most frequent values (at most 10), most frequent first. */
  top: z.array(z.object({ value: CellValue, count: z.number().int().positive() })),
  /** Equal-width bins over [min, max]: numbers, or epoch milliseconds for times. */
  histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int().nonnegative() })),
  /** Set when made from the cached result. */
  fromCache: FromCache.optional(),
  /** Set when made on a random sample the service drew, the result not being in the cache: its rows, of how many. */
  sampled: z.object({ rows: z.number().int().nonnegative(), of: z.number().int().nonnegative() }).nullable(),
});
export type ColumnProfile = z.infer<typeof ColumnProfile>;

const NamedType = z.object({ name: z.string(), type: z.string() });

/** Two runs of a query side by side: sizes and columns, and by a key column, the rows that differ. */
export const RunComparison = z.object({
  rowCount: z.object({ a: z.number().int().nonnegative(), b: z.number().int().nonnegative() }),
  columns: z.object({
    onlyInA: z.array(NamedType),
    onlyInB: z.array(NamedType),
    retyped: z.array(z.object({ name: z.string(), a: z.string(), b: z.string() })),
    /** The columns both have: a key is one of them. */
    common: z.array(z.string()),
  }),
  /** Null until a key is given. */
  byKey: z
    .object({
      key: z.string(),
      onlyInA: z.number().int().nonnegative(),
      onlyInB: z.number().int().nonnegative(),
      changed: z.number().int().nonnegative(),
      same: z.number().int().nonnegative(),
      /** The first 200 rows that differ, by key; for a changed row, the cells that differ. */
      rows: z.array(
        z.object({
          kind: z.enum(['onlyA', 'onlyB', 'changed']),
          key: CellValue,
          differences: z.array(z.object({ column: z.string(), a: CellValue, b: CellValue })),
        }),
      ),
    })
    .nullable(),
});
export type RunComparison = z.infer<typeof RunComparison>;

export const ChartAggregation = z.enum(['count', 'sum', 'avg', 'min', 'max']);
export const ChartKind = z.enum(['bar', 'line', 'area', 'scatter', 'pie']);
export type ChartKind = z.infer<typeof ChartKind>;

/** How many categories a bar or pie shows before the rest become one "Other". */
export const CHART_TOP_N = { bar: 20, pie: 8, max: 100 } as const;
/** A scatter plots every row up to this many; above it, a uniform sample of this many. */
export const SCATTER_MAX_POINTS = 10_000;

/** Which charts show their top N categories and "Other": pies, and bars whose x is not time (a bar over time has its buckets). */
export function showsTopCategories(kind: ChartKind, xKind: 'time' | 'number' | 'text'): boolean {
  return kind === 'pie' || (kind === 'bar' && xKind !== 'time');
}

const columnName = z.string().min(1).max(500);
const topN = z.number().int().min(1).max(CHART_TOP_N.max);

/** The chart form's choices, kept with a query's result view (`view:<queryId>`) so the chart comes back. */
export const ChartSettings = z
  .object({
    kind: ChartKind,
    x: columnName,
    /** Aggregated per x (and group); may be empty with `count`, which then counts rows. */
    y: z.array(columnName).max(8),
    groupBy: columnName.nullable(),
    aggregation: ChartAggregation,
    topN,
  })
  .strict();
export type ChartSettings = z.infer<typeof ChartSettings>;

export const ChartRequest = z
  .object({
    accountId,
    executionId,
    kind: ChartKind,
    x: columnName,
    y: ChartSettings.shape.y,
    groupBy: columnName.nullable().optional(),
    aggregation: ChartAggregation,
    /** Bars and pies: categories shown before "Other" (20 for a bar, 8 for a pie when absent). */
    topN: topN.optional(),
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
  /** Null for a scatter, which plots rows as they are. */
  aggregation: ChartAggregation.nullable(),
  /**
   * One row per point: [x, group (null without groupBy), one value per y column (the count when y
   * is empty)]. Ordered by x; a bar's or pie's categories by their measure, largest first.
   */
  rows: z.array(z.array(CellValue)),
  /** A bar's or pie's categories past the top N, aggregated together: rows shaped as `rows`, x null. */
  other: z.object({ categories: z.number().int().positive(), rows: z.array(z.array(CellValue)) }).nullable(),
  /** A scatter of more rows than it plots: `shown` of `total` points, drawn uniformly at random. */
  sample: z.object({ shown: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).nullable(),
  /** Some categories or groups were left out to stay within the point budget. */
  truncated: z.boolean(),
  /** The y columns some of whose values are past 2^53, where a double only estimates them (shown as ≈). */
  inexact: z.array(z.string()),
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

/**
 * How a CSV export writes values. spreadsheet: as the grid shows them (a decimal with its scale,
 * every digit), timestamps as `YYYY-MM-DD HH:MM:SS.mmm` in UTC, which spreadsheets read as dates;
 * service: exactly the text of the service's CSV (timestamps end in ` UTC`, fractions as doubles).
 */
export const ExportText = z.enum(['spreadsheet', 'service']);
export type ExportText = z.infer<typeof ExportText>;

export const ExportRequest = z
  .object({
    accountId,
    executionId,
    /** `view` applies the filters, sort and columns given; `all` is the whole result as it is. */
    scope: z.enum(['all', 'view']),
    /** csv when not given. */
    format: ExportFormat.optional(),
    /** CSV only; spreadsheet when not given. */
    text: ExportText.optional(),
    ...resultView,
    allowPartial: z.boolean().optional(),
    /** A suggestion for the file's name; the host's dialog (or the browser) has the last word. */
    fileName: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((request) => request.text === undefined || (request.format ?? 'csv') === 'csv', {
    path: ['text'],
    message: 'text chooses how CSV writes values; Parquet and JSON lines keep the values typed, so leave it out for them',
  });

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
