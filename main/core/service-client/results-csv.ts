import { success, type ClientResult } from './errors.ts';
import { nextPageRequest } from './next-page.ts';
import type { RequestOptions, Transport } from './request.ts';
import { viewQuery, type ResultView } from './result-view.ts';

// An execution's result in CSV: GET /execution/{id}/results/csv, page after page. Pagination
// is in the `X-<service>-Next-Offset` / `X-<service>-Next-Uri` headers, and every page repeats
// the header row, which is split off so pages can be written one after another.

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

export function createCsvPages(transport: Transport) {
  return async function* csvPages(args: CsvPagesArgs): AsyncGenerator<ClientResult<CsvPage>, void, undefined> {
    const first: RequestOptions = {
      method: 'GET',
      path: `/execution/${encodeURIComponent(args.executionId)}/results/csv`,
      query: {
        limit: args.limit,
        offset: args.offset ?? 0,
        allow_partial_results: args.allowPartialResults ? true : undefined,
        ...viewQuery(args.view),
      },
      signal: args.signal,
      accept: 'text/csv',
    };
    let request: RequestOptions | null = first;
    let offset = args.offset ?? 0;
    while (request !== null) {
      const response = await transport.raw(request);
      if (!response.ok) {
        yield response;
        return;
      }
      const headers = response.value.headers;
      const nextOffsetHeader = Number.parseInt(headers.get(`x-${transport.serviceName}-next-offset`) ?? '', 10);
      const page = {
        ...splitHeader(response.value.text),
        nextOffset: Number.isSafeInteger(nextOffsetHeader) ? nextOffsetHeader : null,
        nextUri: headers.get(`x-${transport.serviceName}-next-uri`),
      };
      yield success(page);
      const next = nextPageRequest(transport, first, offset, page);
      request = next?.request ?? null;
      offset = next?.offset ?? offset;
    }
  };
}

/** Splits at the end of the first record: a line break outside double quotes. */
export function splitHeader(text: string): { header: string; rows: string } {
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (char === '\n' && !quoted) {
      const header = text.slice(0, i).replace(/\r$/, '');
      return { header, rows: text.slice(i + 1) };
    }
  }
  return { header: text.replace(/\r$/, ''), rows: '' };
}
