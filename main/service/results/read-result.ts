import { isValueError } from '../../common/duckdb-errors.ts';
import type { Execution, ResultSummary } from '../executions/execution-store.ts';
import { badRequest } from '../http/http-error.ts';
import type { PageWindow } from './paging.ts';
import { resultOptions } from './result-options.ts';
import type { Page, PageEncoding, PageQuery, ResultStore, StoredSize } from './result-store.ts';
import type { ResultColumn } from './row-bytes.ts';

/** One response's worth of a stored result, and the totals its pagination is measured against. */
export interface ResultSlice {
  columns: ResultColumn[];
  /** The rows' JSON objects joined by commas, or their CSV lines, each ending in a line break, in parts (see Page). */
  body: Buffer[];
  rowCount: number;
  bytes: number;
  /** Rows (and their bytes) that the request's filters let through: the whole result without filters. */
  totalRows: number;
  totalBytes: number;
  window: PageWindow;
  sampled: boolean;
  /** See Page.sent. */
  sent?: () => void;
}

function storedColumns(summary: ResultSummary): ResultColumn[] {
  return summary.columnNames.map((name, i) => ({ name, type: summary.columnTypes[i]! }));
}

/** A sample of `count` rows of the `total` that pass its filter; past the page cap it is refused, never cut to a page silently. */
async function sampledPage(
  count: number,
  maxPageRows: number,
  total: StoredSize,
  page: (samplePercent: number | null) => Promise<Page>,
): Promise<[StoredSize, Page]> {
  if (Math.min(count, total.rowCount) > maxPageRows) {
    throw badRequest(
      `sample_count ${count} would return ${Math.min(count, total.rowCount)} rows, above this service's limit of ` +
        `${maxPageRows} rows in one response; ask for at most ${maxPageRows}`,
    );
  }
  return [total, await page(total.rowCount > count ? (count / total.rowCount) * 100 : null)];
}

/** Reads the slice a request asks for: page or sample, with its filters, sort and columns. */
export async function readResult(
  results: ResultStore,
  execution: Execution,
  summary: ResultSummary,
  url: URL,
  maxPageRows: number,
  format: PageEncoding,
): Promise<ResultSlice> {
  const all = storedColumns(summary);
  const { request, window, sampleCount } = resultOptions(url, all, maxPageRows, format);
  try {
    const total = () => (request.where ? results.count(execution.id, all, request.where) : Promise.resolve(summary));
    const pageQuery = (samplePercent: number | null): PageQuery => ({
      tableColumns: all,
      columns: request.columns,
      ...window,
      where: request.where,
      orderBy: request.orderBy,
      samplePercent,
      storedRows: summary.rowCount,
    });
    const page = (samplePercent: number | null) => results.page(execution.id, pageQuery(samplePercent), format);
    // A sample's share of rows needs the count first.
    const [counted, read] =
      sampleCount !== null
        ? await sampledPage(sampleCount, maxPageRows, await total(), page)
        : request.where
          ? await results.filteredPage(execution.id, { ...pageQuery(null), where: request.where }, format)
          : [summary, await page(null)];
    return {
      columns: request.columns,
      body: read.body,
      rowCount: read.rowCount,
      bytes: read.bytes,
      sent: read.sent,
      totalRows: counted.rowCount,
      totalBytes: counted.bytes,
      window,
      sampled: sampleCount !== null,
    };
  } catch (error) {
    if (error instanceof Error && isValueError(error.message)) {
      // The condition as the client wrote it names the column and the operator DuckDB refused.
      throw badRequest(`filters: ${error.message.split('\n')[0]} (in ${JSON.stringify(url.searchParams.get('filters') ?? '')})`);
    }
    throw error;
  }
}
