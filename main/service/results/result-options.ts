import { compileResultRequest, FilterLanguageError, type CompiledRequest } from '../../filter-language/index.ts';
import { badRequest } from '../http/http-error.ts';
import type { PageEncoding } from './page.ts';
import { datapointRows, pageWindow, wholeNumber, type PageWindow } from './paging.ts';
import type { ResultColumn } from './row-bytes.ts';

export interface ResultOptions {
  request: CompiledRequest;
  /** When sampling: the sample size from offset 0, as a sample is one response without pages. */
  window: PageWindow;
  sampleCount: number | null;
}

function sampleCountOf(url: URL): number | null {
  const text = url.searchParams.get('sample_count');
  if (text === null || text === '') return null;
  const count = wholeNumber(text, 1);
  if (count === null) throw badRequest(`sample_count must be a positive integer of at most ${Number.MAX_SAFE_INTEGER}, got '${text}'`);
  for (const refused of ['limit', 'offset', 'filters']) {
    if (url.searchParams.has(refused)) throw badRequest(`sample_count cannot be used with ${refused} (only with columns and sort_by)`);
  }
  return count;
}

/**
 * The options of a result request: page window or sample, and the compiled filters, sort and
 * columns. A JSON or CSV page is held to Dune's datapoint cap as well as the page cap; a Parquet
 * page, which Dune does not have, to the page cap alone.
 */
export function resultOptions(url: URL, columns: ResultColumn[], maxPageRows: number, format: PageEncoding): ResultOptions {
  const sampleCount = sampleCountOf(url);
  let request: CompiledRequest;
  try {
    request = compileResultRequest(
      {
        filters: url.searchParams.get('filters'),
        sortBy: url.searchParams.get('sort_by'),
        columns: url.searchParams.get('columns'),
      },
      columns,
    );
  } catch (error) {
    if (error instanceof FilterLanguageError) throw badRequest(error.message);
    throw error;
  }
  const pageRows = format === 'parquet' ? maxPageRows : Math.min(maxPageRows, datapointRows(url, request.columns.length));
  const window = sampleCount === null ? pageWindow(url, pageRows) : { limit: sampleCount, offset: 0 };
  return { request, window, sampleCount };
}
