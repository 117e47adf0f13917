import { scanRecord } from '../../common/csv-text.ts';
import { ok } from '../../contract/index.ts';
import type { ClientResult } from './errors.ts';
import { nextPageRequest } from './next-page.ts';
import type { BodyConsumer, RequestOptions, ResponseHeaders, Transport } from './request.ts';
import { viewQuery, type ResultView } from './result-view.ts';

// An execution's result in CSV: GET /execution/{id}/results/csv, page after page. Pagination
// is in the `X-<service>-Next-Offset` / `X-<service>-Next-Uri` headers, and every page repeats
// the header row, which is split off so pages can be written one after another.
// A page streamed to a consumer may be asked for as Parquet too: a service that can sends it so
// (fewer bytes than CSV, and far less work to load), one that cannot (Dune's own) sends CSV.

/** The media type of a page sent as a Parquet file: columns c0, c1, … in the result's order. */
const PARQUET_TYPE = 'application/vnd.apache.parquet';
const PARQUET_OR_CSV = `${PARQUET_TYPE}, text/csv;q=0.5`;

/** What a streamed page's body is: a CSV text with its header row, or a Parquet file. */
export type PageFormat = 'csv' | 'parquet';

export interface CsvPage {
  /** The header row, without its line break. */
  header: string;
  /** The data rows as sent, each ending with its line break; empty past the last row. */
  rows: string;
  nextOffset: number | null;
  nextUri: string | null;
}

export interface CsvPagesArgs {
  executionId: string;
  limit: number;
  offset?: number;
  allowPartialResults?: boolean;
  signal?: AbortSignal;
  view?: ResultView;
}

export interface CsvPageStreamArgs extends CsvPagesArgs {
  /** Asks for the page as Parquet, taking CSV when that is what the service sends. */
  parquet?: boolean;
}

/** One page's body as it arrives, given to a consumer instead of held as text. */
export interface StreamedCsvPage<T> {
  value: T;
  nextOffset: number | null;
  /** The format the body came in (a CSV page includes its header row). */
  format: PageFormat;
}

function pageRequest(args: CsvPageStreamArgs): RequestOptions {
  return {
    method: 'GET',
    path: `/execution/${encodeURIComponent(args.executionId)}/results/csv`,
    query: {
      limit: args.limit,
      offset: args.offset ?? 0,
      allow_partial_results: args.allowPartialResults ? true : undefined,
      ...viewQuery(args.view),
    },
    signal: args.signal,
    accept: args.parquet ? PARQUET_OR_CSV : 'text/csv',
  };
}

function formatOf(headers: ResponseHeaders): PageFormat {
  const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaType === PARQUET_TYPE ? 'parquet' : 'csv';
}

function nextOffsetOf(transport: Transport, headers: ResponseHeaders): number | null {
  const value = Number.parseInt(headers.get(`x-${transport.serviceName}-next-offset`) ?? '', 10);
  return Number.isSafeInteger(value) ? value : null;
}

export function createCsvPageStream(transport: Transport) {
  return async function csvPageStream<T>(args: CsvPageStreamArgs, consume: BodyConsumer<T>): Promise<ClientResult<StreamedCsvPage<T>>> {
    const response = await transport.stream(pageRequest(args), consume);
    if (!response.ok) return response;
    const { headers, value } = response.data;
    return ok({ value, nextOffset: nextOffsetOf(transport, headers), format: formatOf(headers) });
  };
}

export function createCsvPages(transport: Transport) {
  return async function* csvPages(args: CsvPagesArgs): AsyncGenerator<ClientResult<CsvPage>, void, undefined> {
    const first = pageRequest(args);
    let request: RequestOptions | null = first;
    let offset = args.offset ?? 0;
    while (request !== null) {
      const response = await transport.raw(request);
      if (!response.ok) {
        yield response;
        return;
      }
      const headers = response.data.headers;
      const page = {
        ...splitHeader(response.data.text),
        nextOffset: nextOffsetOf(transport, headers),
        nextUri: headers.get(`x-${transport.serviceName}-next-uri`),
      };
      yield ok(page);
      const next = nextPageRequest(transport, first, offset, page);
      request = next?.request ?? null;
      offset = next?.offset ?? offset;
    }
  };
}

/** Splits at the end of the first record: a line break outside double quotes. */
export function splitHeader(text: string): { header: string; rows: string } {
  let headerEnd = 0;
  const rowsStart = scanRecord(text, 0, (_start, end) => (headerEnd = end));
  return { header: text.slice(0, headerEnd), rows: text.slice(rowsStart) };
}
