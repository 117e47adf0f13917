import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kindOf, parseType } from '../../main/common/dune-types/index.ts';
import { duneUploadCsvAnswer, isRemovedTableRoute, isUploadCsv, REMOVED_ROUTE_BODY } from './dune-uploads.ts';

// A stand-in for the hosted service's result shapes, in front of the embedded service: what the
// tests cannot get from Dune itself. A column named `"amount::uint256"` in the SQL reaches the
// client as `amount` of type `uint256`, its values as Dune sends them: integers as bare JSON
// numbers (past 2^128 too), decimals as numbers (in exponent form too), arrays and rows as JSON
// values with every number as the SQL wrote it, varbinary as the `0x` text the SQL wrote. Results
// come as JSON or CSV pages with `next_uri` paging, never as Parquet (the hosted service offers
// none). A status has `result_metadata` only when COMPLETED. Everything else passes through as it is.
// Filters and sorts sent to the service name the columns as the service knows them (with their
// `::type`): a test filters such a result from the cache, where the app answers them itself. A
// `columns` list (as a sample asks for) is put in the service's names. The table routes are Dune's
// of today (dune-uploads.ts): the legacy ones answer 404, a CSV upload only its table name.

export interface DuneShapes {
  baseUrl: string;
  /** Each results request as it came: method, path and query, and what it accepted. */
  requests: { path: string; accept: string | undefined }[];
  /** The bytes of the result bodies sent so far (JSON and CSV pages, statuses). */
  bytesSent(): number;
  close(): Promise<void>;
}

const RESULT_JSON = /^\/api\/v1\/(execution\/[^/]+\/(status|results)|query\/[^/]+\/results)$/;
const RESULT_CSV = /^\/api\/v1\/(execution|query)\/[^/]+\/results\/csv$/;
const TYPED_NAME = /^(.*)::(.+)$/s;

/** A column's name and Dune type from a `name::type` column of the SQL; others as the service had them. */
function relabel(name: string, type: string): { name: string; type: string } {
  const typed = TYPED_NAME.exec(name);
  return typed ? { name: typed[1]!, type: typed[2]! } : { name, type };
}

const raw = JSON as unknown as { rawJSON(text: string): unknown };

/** A value of a relabelled column as Dune writes it in JSON. */
function duneValue(type: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const kind = kindOf(parseType(type));
  if ((kind === 'integer' || kind === 'big-integer' || kind === 'decimal') && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value))
    return raw.rawJSON(value);
  if (kind === 'nested' || kind === 'json') return JSON.parse(value, asWritten as Parameters<typeof JSON.parse>[1]);
  return value;
}

// Dune writes the numbers in a nested value as the engine wrote them: `-0.0`, `98.80`.
function asWritten(_key: string, value: unknown, context: { source?: string }): unknown {
  return typeof value === 'number' ? raw.rawJSON(context.source!) : value;
}

interface Metadata {
  column_names?: string[];
  column_types?: string[];
}

function relabelMetadata(metadata: Metadata | undefined): Map<string, { name: string; type: string }> {
  const columns = new Map<string, { name: string; type: string }>();
  if (!metadata?.column_names) return columns;
  metadata.column_names.forEach((name, i) => columns.set(name, relabel(name, metadata.column_types?.[i] ?? 'varchar')));
  metadata.column_names = [...columns.values()].map((c) => c.name);
  metadata.column_types = [...columns.values()].map((c) => c.type);
  return columns;
}

function rewriteJson(text: string): string {
  const body = JSON.parse(text) as {
    state?: string;
    result?: { metadata?: Metadata; rows?: Record<string, unknown>[] };
    result_metadata?: Metadata;
  };
  if (body.state !== 'QUERY_STATE_COMPLETED') delete body.result_metadata;
  relabelMetadata(body.result_metadata);
  const columns = relabelMetadata(body.result?.metadata);
  if (body.result?.rows) {
    body.result.rows = body.result.rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([name, value]) => {
          const column = columns.get(name) ?? relabel(name, 'varchar');
          return [column.name, duneValue(column.type, value)];
        }),
      ),
    );
  }
  return JSON.stringify(body);
}

/** The CSV's header with each `name::type` named `name`; the rows as the service wrote them. */
function rewriteCsvHeader(text: string): string {
  const end = text.indexOf('\n');
  const header = end < 0 ? text : text.slice(0, end);
  const names = [...header.matchAll(/"((?:[^"]|"")*)"|([^,]+)|(?<=,|^)(?=,|$)/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll('""', '"') : (m[2] ?? ''),
  );
  const renamed = names
    .map((name) => relabel(name, '').name)
    .map((name) => (/[",\n]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name));
  return renamed.join(',') + (end < 0 ? '' : text.slice(end));
}

/** The request's target with each name of its `columns` list as the service at `upstream` names it. */
async function withServiceColumns(target: string, upstream: URL, headers: IncomingMessage['headers']): Promise<string> {
  const url = new URL(target, 'http://stand-in');
  const execution = /^\/api\/v1\/execution\/([^/]+)\/results/.exec(url.pathname);
  const wanted = url.searchParams.get('columns');
  if (!execution || !wanted) return target;
  const status = await fetch(new URL(`/api/v1/execution/${execution[1]}/status`, upstream), {
    headers: { 'x-dune-api-key': String(headers['x-dune-api-key'] ?? '') },
  });
  const names = ((await status.json()) as { result_metadata?: Metadata }).result_metadata?.column_names ?? [];
  const byBareName = new Map(names.map((name) => [relabel(name, '').name, name]));
  url.searchParams.set(
    'columns',
    wanted
      .split(',')
      .map((name) => byBareName.get(name) ?? name)
      .join(','),
  );
  return url.pathname + url.search;
}

async function bodyOf(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the stand-in on loopback in front of the service at `target`. */
export async function startDuneShapes(target: string): Promise<DuneShapes> {
  const upstream = new URL(target);
  const requests: DuneShapes['requests'] = [];
  let bytesSent = 0;
  const server = createServer(async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const path = new URL(incoming.url ?? '/', 'http://stand-in').pathname;
    if (isRemovedTableRoute(path)) {
      incoming.resume();
      outgoing.writeHead(404, { 'content-type': 'application/json' }).end(REMOVED_ROUTE_BODY);
      return;
    }
    const upload = isUploadCsv(incoming.method, path);
    const json = RESULT_JSON.test(path);
    const csv = RESULT_CSV.test(path);
    if (json || csv) requests.push({ path: incoming.url ?? '', accept: incoming.headers.accept });
    const headers = { ...incoming.headers };
    // answers are read and rewritten here: never compressed on the way, never Parquet
    delete headers['accept-encoding'];
    if (csv) headers.accept = 'text/csv';
    const target = json ? await withServiceColumns(incoming.url ?? '/', upstream, incoming.headers) : incoming.url;
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: target, headers },
      async (answer) => {
        const answerHeaders = { ...answer.headers };
        if (!(json || csv || upload) || (answer.statusCode ?? 500) >= 300) {
          outgoing.writeHead(answer.statusCode ?? 502, answerHeaders);
          answer.pipe(outgoing);
          return;
        }
        const text = (await bodyOf(answer)).toString('utf8');
        const rewritten = Buffer.from(upload ? duneUploadCsvAnswer(text) : json ? rewriteJson(text) : rewriteCsvHeader(text));
        if (!upload) bytesSent += rewritten.length;
        delete answerHeaders['content-length'];
        delete answerHeaders['transfer-encoding'];
        outgoing.writeHead(answer.statusCode!, { ...answerHeaders, 'content-length': rewritten.length });
        outgoing.end(rewritten);
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    bytesSent: () => bytesSent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
