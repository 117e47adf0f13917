import type { ClientResult } from './errors.ts';
import type { Transport } from './request.ts';
import { isObject, readBoolean, readInt, readObject, readString, type JsonObject } from './wire-read.ts';

// Uploaded tables, at Dune's /uploads routes (notes §9.1; the /table ones they replaced were removed
// on 2026-03-01): GET /uploads, POST /uploads/csv, POST /uploads (create),
// POST /uploads/{namespace}/{table}/insert, DELETE /uploads/{namespace}/{table}.

export interface TableListItem {
  /** `<catalog>.<namespace>.<table>`, the name to use in SQL. */
  fullName: string;
  isPrivate: boolean;
  /** The service sends it as a string; null when absent or unreadable. */
  sizeBytes: number | null;
  createdAt: string | null;
  updatedAt: string | null;
  ownerHandle: string | null;
  columns: { name: string; type: string }[];
}

export interface CsvUploadArgs {
  tableName: string;
  /** The CSV text, or its pieces in order, read afresh on each call: it is streamed, never held whole. */
  data: string | (() => AsyncIterable<string>);
  description: string;
  isPrivate: boolean;
}

export interface CreateTableArgs {
  namespace: string;
  tableName: string;
  schema: { name: string; type: string }[];
  description: string;
  isPrivate: boolean;
}

export interface TablesApi {
  list(args?: {
    limit?: number;
    offset?: number;
    signal?: AbortSignal;
  }): Promise<ClientResult<{ tables: TableListItem[]; nextOffset: number | null }>>;
  /** Answers the full name when the service gives it: Dune answers only the table name, as it was sent. */
  uploadCsv(args: CsvUploadArgs, options?: { signal?: AbortSignal }): Promise<ClientResult<{ fullName: string | null }>>;
  create(args: CreateTableArgs, options?: { signal?: AbortSignal }): Promise<ClientResult<{ fullName: string }>>;
  /** One CSV part, header first; all or nothing on the service's side. */
  insert(namespace: string, table: string, csv: Buffer, options?: { signal?: AbortSignal }): Promise<ClientResult<{ rowsWritten: number }>>;
  remove(namespace: string, table: string, options?: { signal?: AbortSignal }): Promise<ClientResult<true>>;
}

/** A body of up to hundreds of megabytes takes longer than a page read. */
const LARGE_BODY_TIMEOUT_MS = 15 * 60_000;

const tablePath = (namespace: string, table: string) => `/uploads/${encodeURIComponent(namespace)}/${encodeURIComponent(table)}`;

export function createTablesApi(transport: Transport): TablesApi {
  return {
    list: ({ limit, offset, signal } = {}) =>
      transport.json({ method: 'GET', path: '/uploads', query: { limit, offset }, signal }, (body) => {
        if (!isObject(body) || !Array.isArray(body.tables)) return null;
        const tables = body.tables.filter(isObject).flatMap((item) => {
          const listed = readTable(item);
          return listed === null ? [] : [listed];
        });
        return { tables, nextOffset: readInt(body, 'next_offset') };
      }),

    // The upload replaces a table of the same name whole, so sending it twice leaves the same table.
    uploadCsv: (args, options = {}) =>
      transport.json(
        {
          method: 'POST',
          path: '/uploads/csv',
          content: { type: 'application/json', data: () => uploadBody(args) },
          signal: options.signal,
          timeoutMs: LARGE_BODY_TIMEOUT_MS,
          idempotent: true,
        },
        (body) => (isObject(body) && readBoolean(body, 'success') !== false ? { fullName: readString(body, 'full_name') } : null),
      ),

    create: (args, options = {}) =>
      transport.json(
        {
          method: 'POST',
          path: '/uploads',
          body: {
            namespace: args.namespace,
            table_name: args.tableName,
            schema: args.schema,
            description: args.description,
            is_private: args.isPrivate,
          },
          signal: options.signal,
        },
        (body) => {
          const fullName = isObject(body) ? readString(body, 'full_name') : null;
          return fullName === null ? null : { fullName };
        },
      ),

    // Never sent twice by the transport: after an answer that is lost, only the caller can tell
    // whether the rows arrived.
    insert: (namespace, table, csv, options = {}) =>
      transport.json(
        {
          method: 'POST',
          path: `${tablePath(namespace, table)}/insert`,
          content: { type: 'text/csv', data: csv },
          signal: options.signal,
          timeoutMs: LARGE_BODY_TIMEOUT_MS,
        },
        (body) => {
          const rowsWritten = isObject(body) ? readInt(body, 'rows_written') : null;
          return rowsWritten === null ? null : { rowsWritten };
        },
      ),

    remove: (namespace, table, options = {}) =>
      transport.json(
        { method: 'DELETE', path: tablePath(namespace, table), signal: options.signal, idempotent: true },
        () => true as const,
      ),
  };
}

/** `{"table_name": …, "data": "<the CSV text, escaped piece by piece>"}`, as bytes. */
async function* uploadBody(args: CsvUploadArgs): AsyncIterable<Uint8Array> {
  const encoder = new TextEncoder();
  const fields = JSON.stringify({ table_name: args.tableName, description: args.description, is_private: args.isPrivate, data: '' });
  // Everything up to the opening quote of data's value; its text and the closing quote follow.
  yield encoder.encode(fields.slice(0, -2));
  const pieces = typeof args.data === 'string' ? [args.data] : args.data();
  for await (const piece of pieces) yield encoder.encode(JSON.stringify(piece).slice(1, -1));
  yield encoder.encode('"}');
}

function readTable(item: JsonObject): TableListItem | null {
  const fullName = readString(item, 'full_name');
  if (fullName === null) return null;
  const size = item.table_size_bytes;
  const sizeBytes = typeof size === 'number' ? size : typeof size === 'string' && /^\d+$/.test(size) ? Number(size) : null;
  const columns = Array.isArray(item.columns)
    ? item.columns.filter(isObject).map((column) => ({ name: readString(column, 'name') ?? '', type: readString(column, 'type') ?? '' }))
    : [];
  return {
    fullName,
    isPrivate: readBoolean(item, 'is_private') ?? false,
    sizeBytes,
    createdAt: readString(item, 'created_at'),
    updatedAt: readString(item, 'updated_at'),
    ownerHandle: readString(readObject(item, 'owner') ?? {}, 'handle'),
    columns,
  };
}
