import { isValueError } from '../../common/duckdb-errors.ts';
import type { Execution, ResultSummary } from '../executions/execution-store.ts';
import { badRequest } from '../http/http-error.ts';
import type { PageWindow } from './paging.ts';
import { resultOptions } from './result-options.ts';
import type { PageEncoding, ResultStore } from './result-store.ts';
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
  const { request, window, sampleCount } = resultOptions(url, all, maxPageRows);
  try {
    const total = request.where ? await results.count(execution.id, all, request.where) : summary;
    // A sample is one response: it is never cut to a page silently; past the page cap it is refused.
    if (sampleCount !== null && Math.min(sampleCount, total.rowCount) > maxPageRows) {
      throw badRequest(
        `sample_count ${sampleCount} would return ${Math.min(sampleCount, total.rowCount)} rows, above this service's limit of ` +
          `${maxPageRows} rows in one response; ask for at most ${maxPageRows}`,
      );
    }
    const samplePercent = sampleCount !== null && total.rowCount > sampleCount ? (sampleCount / total.rowCount) * 100 : null;
    const page = await results.page(
      execution.id,
      {
        tableColumns: all,
        columns: request.columns,
        ...window,
        where: request.where,
        orderBy: request.orderBy,
        samplePercent,
        storedRows: summary.rowCount,
      },
      format,
    );
    return {
      columns: request.columns,
      body: page.body,
      rowCount: page.rowCount,
      bytes: page.bytes,
      sent: page.sent,
      totalRows: total.rowCount,
      totalBytes: total.bytes,
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
