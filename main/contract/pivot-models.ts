import { z } from 'zod';
import { CellValue, FromCache } from './models.ts';
import { ExportFormat, resultView } from './result-models.ts';

// A pivot of a cached result: groups of rows (a tree, with subtotals and a grand total), optionally
// split by one column's most frequent values, and measures of each group, computed by DuckDB in
// the cache.

const columnName = z.string().min(1).max(500);

/** Time columns group by one of these; any other column by its values. */
export const TimeGrain = z.enum(['minute', 'hour', 'day', 'week', 'month']);
export type TimeGrain = z.infer<typeof TimeGrain>;

export const PivotMeasureFn = z.enum(['count', 'sum', 'avg', 'min', 'max', 'count_distinct', 'median']);
export type PivotMeasureFn = z.infer<typeof PivotMeasureFn>;

export const PivotGroupBy = z.object({ column: columnName, grain: TimeGrain.nullable().optional() }).strict();
export type PivotGroupBy = z.infer<typeof PivotGroupBy>;

/** `count` counts rows and takes no column; every other measure names one. */
export const PivotMeasure = z
  .object({ fn: PivotMeasureFn, column: columnName.nullable().optional() })
  .strict()
  .refine((m) => (m.fn === 'count') === !m.column, { message: 'count takes no column; every other measure names one', path: ['column'] });
export type PivotMeasure = z.infer<typeof PivotMeasure>;

export const PIVOT_MAX_ROWS = 4;
export const PIVOT_MAX_MEASURES = 8;
export const PIVOT_MAX_SPLIT = 50;
/** Groups a pivot sends at most: past them, the deepest level is cut to its best-ranked groups and the table says so. */
export const PIVOT_MAX_GROUPS = 20_000;

export const PivotSettings = z
  .object({
    /** Outer group first. */
    rows: z.array(PivotGroupBy).min(1).max(PIVOT_MAX_ROWS),
    /** Splits each group's measures by this column's `top` most frequent values, and "Other". */
    split: PivotGroupBy.extend({ top: z.number().int().min(1).max(PIVOT_MAX_SPLIT) })
      .strict()
      .nullable()
      .optional(),
    measures: z.array(PivotMeasure).min(1).max(PIVOT_MAX_MEASURES),
    /** Siblings ordered by a measure's total (its index in `measures`); by their values when absent. */
    sort: z
      .object({
        measure: z
          .number()
          .int()
          .min(0)
          .max(PIVOT_MAX_MEASURES - 1),
        direction: z.enum(['asc', 'desc']),
      })
      .strict()
      .nullable()
      .optional(),
  })
  .strict();
export type PivotSettings = z.infer<typeof PivotSettings>;

export const PivotRequest = PivotSettings.extend({ filters: resultView.filters });

export const PivotTable = z.object({
  rows: z.array(z.object({ name: z.string(), type: z.string(), grain: TimeGrain.nullable() })),
  /** The split's values, most frequent first; `other` counts the values folded into "Other". */
  split: z
    .object({ name: z.string(), type: z.string(), grain: TimeGrain.nullable(), values: z.array(CellValue), other: z.number().int() })
    .nullable(),
  measures: z.array(z.object({ label: z.string(), fn: PivotMeasureFn, column: z.string().nullable(), type: z.string() })),
  /**
   * Groups in tree order (each after its parent, siblings in the sort's order); `key` holds the values
   * of the first `key.length` row columns, empty for the grand total, which comes first. `cells`
   * holds, for each bucket (the total, then each split value, then Other when there is a split), one
   * value per measure.
   */
  groups: z.array(z.object({ key: z.array(CellValue), rows: z.number().int(), cells: z.array(z.array(CellValue)) })),
  /** Past the limit, the deepest groups are left out: `shown` of `total` groups. */
  truncated: z.object({ shown: z.number().int(), total: z.number().int() }).nullable(),
  /** Labels of measures with a value past 2^53 that a double only estimates. */
  inexact: z.array(z.string()),
  fromCache: FromCache,
});
export type PivotTable = z.infer<typeof PivotTable>;

/**
 * A pivot written to a file as its table shows it: the groups shown (the grand total's key is
 * empty; a folded group's children are not shown), and each bucket's measure headings as the
 * table reads them (the split's values in the window's own number style).
 */
export const PivotExportRequest = PivotRequest.extend({
  format: ExportFormat,
  shown: z
    .array(z.array(CellValue).max(PIVOT_MAX_ROWS))
    .min(1)
    .max(PIVOT_MAX_GROUPS + 1),
  headings: z
    .array(z.string().max(1_000))
    .min(1)
    .max(PIVOT_MAX_MEASURES * (PIVOT_MAX_SPLIT + 2)),
  /** A suggestion for the file's name; the host's dialog (or the browser) has the last word. */
  fileName: z.string().min(1).max(200).optional(),
});
