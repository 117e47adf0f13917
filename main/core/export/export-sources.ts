import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';
import { fail, ok, type ExportFormat, type ExportText, type Result } from '../../contract/index.ts';
import type { CompiledRequest } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { countRows, whereClause } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { noResultText } from '../executions/states.ts';
import { refusal } from '../results/read-range.ts';
import type { ResultView, ServiceClient } from '../service-client/index.ts';
import { COPY_OPTIONS, copySelectList } from './copy-formats.ts';
import { spreadsheetPages } from './csv-pages.ts';

// The bytes of a result or of its view: from the cache, DuckDB writes the file itself (in
// parallel, memory flat); from the service, its CSV pages are passed on one after another,
// rewritten to a spreadsheet's text unless the service's own is asked for. Both give the same CSV.

export interface FileSource {
  kind: 'file';
  totalRowCount: number;
  fromCache: true;
  /** Writes the whole file to `path`, telling how many rows are done now and then. */
  copyTo(path: string, signal: AbortSignal, onRows: (rows: number) => void): Promise<void>;
}

export type ExportSource =
  | FileSource
  | {
      kind: 'chunks';
      totalRowCount: number | null;
      fromCache: false;
      /** Hands each chunk of text on, with how many rows it holds; waits while the receiver is full. */
      writeTo(write: (text: string, rows: number) => Promise<void>, signal: AbortSignal): Promise<void>;
    }
  | {
      kind: 'caching';
      /** Of the download into the cache. */
      totalRowCount: number | null;
      fromCache: false;
      /** Waits for the result to be in the cache, telling how many rows are downloaded now and then. */
      cached(signal: AbortSignal, onRows: (rows: number) => void): Promise<FileSource>;
    };

export class ExportAborted extends Error {}

const PROGRESS_POLL_MS = 200;

/**
 * The name the cached table goes by in an export's COPY: its columns are written shaped (a
 * timestamp as text, a wide decimal as text) under their own names, and the sort, compiled with
 * this name, orders by the stored values rather than by that text.
 */
export const EXPORT_SOURCE = 'export_source';

export async function cacheSource(
  db: CacheDb,
  entry: CacheEntry,
  compiled: CompiledRequest,
  written: { format: ExportFormat; text: ExportText },
): Promise<FileSource> {
  const { format, text } = written;
  const table = quoteIdentifier(entry.tableName);
  const where = whereClause(compiled);
  const params = compiled.where?.params ?? [];
  const orderBy = compiled.orderBy ? ` ORDER BY ${compiled.orderBy}, ${quoteIdentifier(EXPORT_SOURCE)}.rowid` : '';
  const totalRowCount = compiled.where ? await db.withConnection((c) => countRows(c, table, where, params)) : entry.rowCount;
  return {
    kind: 'file',
    totalRowCount,
    fromCache: true,
    copyTo: (path, signal, onRows) =>
      db.withConnection(async (connection) => {
        if (signal.aborted) throw new ExportAborted();
        const interrupt = () => connection.interrupt();
        signal.addEventListener('abort', interrupt, { once: true });
        const poll = setInterval(() => {
          const { percentage } = connection.progress;
          if (percentage > 0) onRows(Math.floor((totalRowCount * Math.min(percentage, 100)) / 100));
        }, PROGRESS_POLL_MS);
        try {
          const select = await copySelectList(connection, format, text, table, compiled.columns);
          await connection.run(
            `COPY (SELECT ${select} FROM ${table} AS ${quoteIdentifier(EXPORT_SOURCE)}${where}${orderBy}) TO ${quoteLiteral(path)} (${COPY_OPTIONS[format]})`,
            params,
          );
        } catch (error) {
          throw signal.aborted ? new ExportAborted() : error;
        } finally {
          clearInterval(poll);
          signal.removeEventListener('abort', interrupt);
        }
        onRows(totalRowCount);
      }),
  };
}

const PAGE_ROWS = 30_000;

/** The service's CSV pages; the view is tried on one JSON row first, so a mistake in it is answered before anything is written. */
export async function serviceSource(
  client: ServiceClient,
  request: { executionId: string; view: ResultView; allowPartial: boolean; text: ExportText },
): Promise<Result<ExportSource>> {
  const { executionId, view, allowPartial, text } = request;
  const probe = await client.results.page({ executionId, offset: 0, limit: 1, view, allowPartialResults: allowPartial });
  if (!probe.ok) return refusal(probe.error);
  if (probe.data.rows === null) return fail('bad_request', noResultText('export', probe.data.state));
  const { metadata } = probe.data;
  const totalRowCount = metadata?.totalRowCount ?? null;
  const columns = metadata?.columnNames && metadata.columnTypes ? { names: metadata.columnNames, types: metadata.columnTypes } : null;
  return ok({
    kind: 'chunks',
    totalRowCount,
    fromCache: false,
    async writeTo(write, signal) {
      let offset = 0;
      let first = true;
      let rewrite: ((rows: string) => string) | null = null;
      for await (const page of client.results.csvPages({
        executionId,
        limit: PAGE_ROWS,
        view,
        allowPartialResults: allowPartial,
        signal,
      })) {
        if (signal.aborted) throw new ExportAborted();
        if (!page.ok) throw new Error(page.error.message);
        const { header, rows, nextOffset } = page.data;
        const end = nextOffset ?? totalRowCount ?? offset;
        if (first && text === 'spreadsheet') rewrite = spreadsheetPages(header, columns);
        await write(`${first ? `${header}\n` : ''}${rewrite ? rewrite(rows) : rows}`, Math.max(0, end - offset));
        first = false;
        offset = end;
      }
    },
  });
}
