import { scanRecord } from '../../common/csv-text.ts';
import type { ClientResult, ResultsPage, ResultView, ServiceClient } from '../service-client/index.ts';
import type { NewUsageEvent } from './usage-event.ts';

// An account's client that tells the usage record what it asked of the service: each execution
// it started, and each page of a result it read, with the page's datapoints and bytes. Every path
// to a result goes through the client, so grid pages, samples, cache downloads and exports are all
// counted, whichever part of the app asked.

/** What is known of a result before its pages come: the query it is of, its rows and columns. */
export interface KnownResult {
  queryId: number | null;
  totalRowCount: number | null;
  columnCount: number | null;
}

export interface MeterOptions {
  accountId: string;
  record: (event: NewUsageEvent) => void;
  /** What the app's own records say of an execution (its history), for results it did not just see. */
  known: (executionId: string) => KnownResult | null;
}

/** Results seen through status answers and pages, kept for the pages that follow them. */
const SEEN_AT_MOST = 500;

interface PageSpan {
  executionId: string;
  offset: number;
  limit: number;
  nextOffset: number | null;
  view?: ResultView;
}

type Recorder = (event: Omit<NewUsageEvent, 'accountId'>) => void;

/** What the meter knows of results, from what it saw pass and from the app's records. */
class Seen {
  readonly #results = new Map<string, KnownResult>();
  readonly #known: MeterOptions['known'];

  constructor(known: MeterOptions['known']) {
    this.#known = known;
  }

  remember(executionId: string, result: KnownResult): void {
    this.#results.delete(executionId);
    this.#results.set(executionId, result);
    if (this.#results.size > SEEN_AT_MOST) this.#results.delete(this.#results.keys().next().value!);
  }

  of(executionId: string): KnownResult | null {
    return this.#results.get(executionId) ?? this.#known(executionId);
  }
}

export function meteredClient(client: ServiceClient, options: MeterOptions): ServiceClient {
  const seen = new Seen(options.known);
  const record: Recorder = (event) => options.record({ ...event, accountId: options.accountId });
  return {
    ...client,
    executions: meteredExecutions(client.executions, seen, record),
    results: meteredResults(client.results, seen, record),
  };
}

function meteredExecutions(executions: ServiceClient['executions'], seen: Seen, record: Recorder): ServiceClient['executions'] {
  const started = (executionId: string, queryId: number) => record({ kind: 'execution', executionId, queryId, datapoints: 0, bytes: 0 });
  return {
    ...executions,
    async execute(args) {
      const answer = await executions.execute(args);
      if (answer.ok) started(answer.data.executionId, args.queryId);
      return answer;
    },
    async executeSql(args) {
      const answer = await executions.executeSql(args);
      if (answer.ok) started(answer.data.executionId, 0);
      return answer;
    },
    async status(executionId, statusOptions) {
      const status = await executions.status(executionId, statusOptions);
      const metadata = status.ok ? status.data.resultMetadata : null;
      if (status.ok && metadata?.totalRowCount != null) {
        const columnCount = metadata.columnNames?.length ?? null;
        seen.remember(executionId, { queryId: status.data.queryId, totalRowCount: metadata.totalRowCount, columnCount });
      }
      return status;
    },
  };
}

function meteredResults(results: ServiceClient['results'], seen: Seen, record: Recorder): ServiceClient['results'] {
  const readPage = (page: ClientResult<ResultsPage>): ClientResult<ResultsPage> => {
    if (!page.ok || page.data.rows === null) return page;
    const { executionId, queryId, rows, metadata } = page.data;
    const columns = metadata?.columnNames?.length ?? Object.keys(rows[0] ?? {}).length;
    if (metadata?.totalRowCount != null)
      seen.remember(executionId, { queryId, totalRowCount: metadata.totalRowCount, columnCount: columns });
    record({
      kind: 'read',
      executionId,
      queryId: queryId ?? seen.of(executionId)?.queryId ?? null,
      datapoints: metadata?.datapointCount ?? rows.length * columns,
      bytes: metadata?.resultSetBytes ?? 0,
    });
    return page;
  };
  const download = (span: PageSpan, bytes: number, countRows: () => number) => {
    const known = seen.of(span.executionId);
    const columns = span.view?.columns ? span.view.columns.split(',').length : (known?.columnCount ?? 0);
    const rows = rowsOf(span, known) ?? countRows();
    record({ kind: 'download', executionId: span.executionId, queryId: known?.queryId ?? null, datapoints: rows * columns, bytes });
  };

  return {
    ...results,
    page: async (args) => readPage(await results.page(args)),
    latest: async (queryId, latestOptions) => readPage(await results.latest(queryId, latestOptions)),
    async *pages(args) {
      for await (const page of results.pages(args)) yield readPage(page);
    },
    async *csvPages(args) {
      let offset = args.offset ?? 0;
      for await (const page of results.csvPages(args)) {
        if (page.ok) {
          const { header, rows, nextOffset } = page.data;
          const span = { executionId: args.executionId, offset, limit: args.limit, nextOffset, view: args.view };
          download(span, Buffer.byteLength(header) + 1 + Buffer.byteLength(rows), () => countRecords(rows));
          offset = nextOffset ?? offset;
        }
        yield page;
      }
    },
    async csvPageStream(args, consume) {
      let bytes = 0;
      const page = await results.csvPageStream(args, (body, headers) => {
        // a retry starts the body over
        bytes = 0;
        return consume(
          counted(body, (n) => (bytes += n)),
          headers,
        );
      });
      if (page.ok) {
        const { executionId, offset = 0, limit, view } = args;
        download({ executionId, offset, limit, nextOffset: page.data.nextOffset, view }, bytes, () => 0);
      }
      return page;
    },
  };
}

/** A page's rows, from where the next one starts, or from the result's size; null when neither says. */
function rowsOf(span: PageSpan, known: KnownResult | null): number | null {
  if (span.nextOffset !== null) return Math.max(0, span.nextOffset - span.offset);
  // filters leave fewer rows than the result has
  const total = span.view?.filters === undefined ? known?.totalRowCount : null;
  return total == null ? null : Math.max(0, Math.min(span.limit, total - span.offset));
}

async function* counted(body: AsyncIterable<Uint8Array>, add: (bytes: number) => void): AsyncIterable<Uint8Array> {
  for await (const chunk of body) {
    add(chunk.byteLength);
    yield chunk;
  }
}

/** Rows of CSV text, quoted line breaks and all. */
function countRecords(text: string): number {
  let rows = 0;
  for (let at = 0; at < text.length; rows++) at = scanRecord(text, at, () => undefined);
  return rows;
}
