import type { ClientResult } from './errors.ts';
import { readExecutionFields, readResultMetadata, type ExecutionFields, type ResultMetadata } from './execution-shape.ts';
import { nextPageRequest } from './next-page.ts';
import type { BodyConsumer, RequestOptions, Transport } from './request.ts';
import { viewQuery, type ResultView } from './result-view.ts';
import {
  createCsvPages,
  createCsvPageStream,
  type CsvPage,
  type CsvPagesArgs,
  type CsvPageStreamArgs,
  type StreamedCsvPage,
} from './results-csv.ts';
import { isObject, readInt, readObject, readString, type JsonObject } from './wire-read.ts';

// An execution's result in JSON: GET /execution/{id}/results?limit&offset, one page or all of
// them in order.

export interface ResultsPageArgs {
  executionId: string;
  offset: number;
  /** The service may answer with fewer rows than asked; follow `nextOffset` for the rest. */
  limit: number;
  /** Reads a result the service truncated (COMPLETED_PARTIAL); refused without it. */
  allowPartialResults?: boolean;
  signal?: AbortSignal;
  /** `filters`, `sort_by` and `columns` in the service's language, sent as given. */
  view?: ResultView;
  /**
   * A random sample of about this many rows instead of a page: one response, and the service refuses
   * it with offset, limit or filters, so those are left out.
   */
  sampleCount?: number;
}

export interface ResultsPage extends ExecutionFields {
  /** Rows keyed by column name; null while the execution has no result (running, failed...). */
  rows: JsonObject[] | null;
  metadata: ResultMetadata | null;
  /** Absent on the last page. */
  nextOffset: number | null;
  nextUri: string | null;
}

export interface ResultsApi {
  page(args: ResultsPageArgs): Promise<ClientResult<ResultsPage>>;
  /**
   * Every page from `offset` on, following `next_uri` (or `next_offset`) as the service gives
   * them, whatever page size it settles on. An error is yielded as the last item.
   */
  pages(args: Omit<ResultsPageArgs, 'offset'> & { offset?: number }): AsyncGenerator<ClientResult<ResultsPage>, void, undefined>;
  /**
   * The query's latest result (`GET /query/{id}/results`): its execution and metadata, with the
   * first row at most (the rows are read by execution id afterwards). With `parameters`, the
   * latest of a run with those values (`params.<name>`), the query's defaults filling the rest.
   * A latest result the service truncated is refused unless `allowPartialResults`.
   */
  latest(
    queryId: number,
    options?: { signal?: AbortSignal; parameters?: Record<string, string>; allowPartialResults?: boolean },
  ): Promise<ClientResult<ResultsPage>>;
  /** The same in CSV, page by page, with the repeated header row split off. */
  csvPages(args: CsvPagesArgs): AsyncGenerator<ClientResult<CsvPage>, void, undefined>;
  /**
   * One page, its body given to `consume` as it arrives, for pages too many to hold as text: CSV
   * (header row included), or Parquet when asked for and the service can send it.
   */
  csvPageStream<T>(args: CsvPageStreamArgs, consume: BodyConsumer<T>): Promise<ClientResult<StreamedCsvPage<T>>>;
}

export function createResultsApi(transport: Transport): ResultsApi {
  const requestFor = ({ executionId, offset, limit, allowPartialResults, signal, view, sampleCount }: ResultsPageArgs): RequestOptions => ({
    method: 'GET',
    path: `/execution/${encodeURIComponent(executionId)}/results`,
    query: {
      ...(sampleCount === undefined ? { limit, offset, ...viewQuery(view) } : { sample_count: sampleCount, columns: view?.columns }),
      allow_partial_results: allowPartialResults ? true : undefined,
    },
    signal,
  });
  const read = (request: RequestOptions) => transport.json(request, readPage);

  return {
    page: (args) => read(requestFor(args)),
    latest: (queryId, { signal, parameters = {}, allowPartialResults } = {}) => {
      const values = Object.fromEntries(Object.entries(parameters).map(([name, value]) => [`params.${name}`, value]));
      const query = { limit: 1, ...values, allow_partial_results: allowPartialResults ? true : undefined };
      return read({ method: 'GET', path: `/query/${queryId}/results`, query, signal });
    },
    csvPages: createCsvPages(transport),
    csvPageStream: createCsvPageStream(transport),

    async *pages(args) {
      const first = requestFor({ ...args, offset: args.offset ?? 0 });
      let request: RequestOptions | null = first;
      let offset = args.offset ?? 0;
      while (request !== null) {
        const page = await read(request);
        yield page;
        if (!page.ok || page.data.rows === null) return;
        const next = nextPageRequest(transport, first, offset, page.data);
        request = next?.request ?? null;
        offset = next?.offset ?? offset;
      }
    },
  };
}

function readPage(body: unknown): ResultsPage | null {
  if (!isObject(body)) return null;
  const fields = readExecutionFields(body);
  if (fields === null) return null;
  const result = readObject(body, 'result');
  const rows = result !== null && Array.isArray(result.rows) ? result.rows.map((row) => (isObject(row) ? row : {})) : null;
  return {
    ...fields,
    rows,
    metadata: readResultMetadata(result === null ? null : readObject(result, 'metadata')),
    nextOffset: readInt(body, 'next_offset'),
    nextUri: readString(body, 'next_uri'),
  };
}
