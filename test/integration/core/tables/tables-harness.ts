import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type {
  ChannelName,
  ChannelRequest,
  ChannelResponse,
  Result,
  TableColumnTypeName,
  UploadDone,
} from '../../../../main/contract/index.ts';
import { listenOnLoopback } from '../fake-service.ts';

// Helpers of the table tests: an upload as the renderer sends it, SQL run over HTTP to read what
// arrived, and a proxy that loses the answer of a request after the service acted on it.

export type Call = <C extends ChannelName>(channel: C, payload: ChannelRequest<C>) => Promise<Result<ChannelResponse<C>>>;

export interface UploadArgs {
  accountId: string;
  tableName: string;
  csv: string;
  columns: { name: string; type: TableColumnTypeName }[];
  rows: number;
  isPrivate?: boolean;
  replace?: boolean;
  chunkChars?: number;
  /** The file's size as the form measured it; the CSV's bytes unless given. */
  fileBytes?: number;
}

/** Begin, the text in chunks, then whatever the caller does with the upload id (commit by default). */
export async function stageUpload(call: Call, args: UploadArgs): Promise<string> {
  const begun = await call('tables:uploadBegin', {
    accountId: args.accountId,
    tableName: args.tableName,
    description: 'from a test',
    isPrivate: args.isPrivate ?? false,
    columns: args.columns,
    rows: args.rows,
    replace: args.replace ?? true,
    fileBytes: args.fileBytes ?? Buffer.byteLength(args.csv),
  });
  if (!begun.ok) throw new Error(begun.error.message);
  const size = args.chunkChars ?? 1000;
  for (let index = 0; index * size < args.csv.length; index += 1) {
    const sent = await call('tables:uploadChunk', {
      uploadId: begun.data.uploadId,
      index,
      text: args.csv.slice(index * size, (index + 1) * size),
    });
    if (!sent.ok) throw new Error(sent.error.message);
  }
  return begun.data.uploadId;
}

export async function upload(call: Call, args: UploadArgs): Promise<Result<UploadDone>> {
  const uploadId = await stageUpload(call, args);
  return call('tables:uploadCommit', { uploadId });
}

/** Runs SQL on the service with this key and answers the rows (or throws with the service's error). */
export async function sql(baseUrl: string, apiKey: string, text: string): Promise<Record<string, unknown>[]> {
  const headers = { 'x-dune-api-key': apiKey, 'content-type': 'application/json' };
  // Bodies are read field by field, as the service's own tests do.
  const post = async (path: string, body: unknown): Promise<any> =>
    (await fetch(`${baseUrl}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
  const get = async (path: string): Promise<any> => (await fetch(`${baseUrl}/api/v1${path}`, { headers })).json();
  const created = await post('/query', { name: 'probe', query_sql: text });
  const run = await post(`/query/${created.query_id}/execute`, {});
  for (;;) {
    const status = await get(`/execution/${run.execution_id}/status`);
    if (status.state === 'QUERY_STATE_COMPLETED') break;
    if (status.is_execution_finished) throw new Error(JSON.stringify(status.error ?? status));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const results = await get(`/execution/${run.execution_id}/results?limit=10000`);
  return results.result.rows;
}

export interface LosingProxy {
  baseUrl: string;
  /** Inserts seen, in order. */
  inserts: number;
  close(): Promise<void>;
}

/**
 * Passes everything to the service; the inserts picked by `lose` are forwarded in full, and once
 * the service answered, the connection is dropped instead of the answer ('after'), or the request is
 * dropped before it reaches the service ('before').
 */
export async function startLosingProxy(upstream: string, lose: (insertNumber: number) => 'before' | 'after' | null): Promise<LosingProxy> {
  const target = new URL(upstream);
  const state = { inserts: 0 };
  const server = createServer((incoming: IncomingMessage, outgoing) => {
    const isInsert = incoming.method === 'POST' && /\/insert$/.test(incoming.url ?? '');
    const fault = isInsert ? lose((state.inserts += 1)) : null;
    if (fault === 'before') {
      incoming.socket.destroy();
      return;
    }
    const passed = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        if (fault === 'after') {
          answer.resume();
          answer.on('end', () => incoming.socket.destroy());
          return;
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    passed.on('error', () => outgoing.destroy());
    incoming.pipe(passed);
  });
  const listening = await listenOnLoopback(server);
  return {
    baseUrl: listening.baseUrl,
    get inserts() {
      return state.inserts;
    },
    close: listening.close,
  };
}
