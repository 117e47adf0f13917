import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { finished, type Duplex } from 'node:stream';
import { diskFullMessage, isDiskFull } from '../storage/disk-full.ts';
import { chooseEncoding, compress, compressesFor, MIN_COMPRESSED_BYTES, type CompressionMode } from './compression.ts';
import { badRequest, ClientGone, HttpError } from './http-error.ts';
import type { Reply, Router } from './router.ts';

// required, not imported (eslint.config.ts says why)
const { createServer } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export interface ServerSetup<Caller> {
  router: Router<Caller>;
  /** Who calls; throws an HttpError (401) when the request carries no valid credentials. */
  identify(request: IncomingMessage, url: URL): Promise<Caller>;
  /**
   * Last check before the handler runs (rate limits); throws an HttpError to refuse. `route` is the
   * pattern the request matched (`/api/v1/execution/:id/cancel`), so the path's spelling (a trailing
   * slash, percent-encoding) or a name in it (a table called `cancel`) cannot change what it is.
   */
  admit?(caller: Caller, method: string, route: string): void;
  /** When an answer is compressed for a client that asks: `auto` unless told (see compression.ts). */
  compression?: CompressionMode;
  /** How long the rest of a body answered before it was read is read and dropped (see lingerOn). */
  lingerMillis: number;
}

async function send(
  request: IncomingMessage,
  response: ServerResponse,
  reply: Reply,
  compression: CompressionMode,
  lingerMillis: number,
): Promise<void> {
  const headers: Record<string, string> = { ...reply.headers };
  if (!request.complete) lingerOn(request, response, lingerMillis);
  let parts: Buffer[];
  if (reply.body !== undefined || reply.text !== undefined) {
    parts = (reply.body ?? [reply.text!]).map((part) => (typeof part === 'string' ? Buffer.from(part) : part));
    headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8';
  } else {
    parts = [Buffer.from(JSON.stringify(reply.json ?? {}))];
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  let length = parts.reduce((sum, part) => sum + part.length, 0);
  if (length >= MIN_COMPRESSED_BYTES && !reply.precompressed && compressesFor(compression, request.socket.remoteAddress)) {
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (encoding) {
      parts = [await compress(encoding, parts.length === 1 ? parts[0]! : Buffer.concat(parts, length))];
      length = parts[0]!.length;
      headers['content-encoding'] = encoding;
    }
  }
  headers['content-length'] = String(length);
  response.writeHead(reply.status ?? 200, headers);
  // written together: one packet for a small answer, no wait between the parts of a large one
  response.cork();
  for (const part of parts) response.write(part);
  response.end();
  response.uncork();
}

/**
 * Tells the reply that its body is no longer read, once the response is written out or closed:
 * `send` has compressed it by then, and Node writes a body from the event loop's thread only.
 */
function whenSent(response: ServerResponse, reply: Reply): void {
  const { sent } = reply;
  if (sent) finished(response, () => sent());
}

/**
 * Answered before its body was read (refused on its declared size, at a limit, or too slow):
 * closing at once would reset a client still sending, which then never reads the answer. So the
 * rest is read and dropped, never kept, for a few seconds at most; then the connection is closed,
 * unless the body ended meanwhile and the connection may already carry the client's next request.
 */
function lingerOn(request: IncomingMessage, response: ServerResponse, lingerMillis: number): void {
  // the request lets go of its socket when it is destroyed (its client gone): kept here
  const { socket } = request;
  // Node closes the connection of a client that asked it to (`Connection: close`) as the answer is
  // written, the body's rest unread, which makes the close a reset: it is closed here instead,
  // once the rest has come
  const closeAfter = !response.shouldKeepAlive;
  response.shouldKeepAlive = true;
  response.once('finish', () => {
    const timer = setTimeout(() => request.complete || socket.destroy(), lingerMillis).unref();
    request.once('end', () => {
      clearTimeout(timer);
      if (closeAfter) socket.end();
    });
    request.resume();
  });
}

function errorReply(error: unknown): Reply {
  if (error instanceof HttpError) return { status: error.status, json: { error: error.message }, headers: error.headers };
  // nobody is left to read the answer: not the service's fault, nothing to log
  if (error instanceof ClientGone) return { status: 400, json: { error: error.message } };
  // nothing of the request was kept (see storage/disk-full.ts), and it may be sent again once there is space
  if (isDiskFull(error)) return { status: 507, json: { error: diskFullMessage('the request could not be stored') } };
  console.error('[service] internal error:', error);
  return { status: 500, json: { error: 'Internal error' } };
}

/** A host name or IP literal, with a port or not: what a Host header may hold. */
const HOST_HEADER = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where links in answers (`next_uri`) point: the Host the client used when it names this machine
 * on the port it reached, else the address it reached. A foreign Host never gets a link, so a key
 * in a URL is never sent elsewhere.
 */
export function requestOrigin(request: IncomingMessage): string {
  const host = request.headers.host;
  const match = host === undefined ? null : HOST_HEADER.exec(host);
  if (host !== undefined && (match === null || Number(match[1] ?? 0) > 65535)) {
    throw badRequest(`malformed Host header ${JSON.stringify(host.slice(0, 100))}`);
  }
  const localPort = request.socket.localPort ?? 0;
  const local = (request.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const reached = `${local.includes(':') ? `[${local}]` : local}:${localPort}`;
  if (host !== undefined && match !== null) {
    const name = match[1] === undefined ? host : host.slice(0, -(match[1].length + 1));
    if (LOOPBACK_NAMES.has(name.toLowerCase()) && Number(match[1] ?? 80) === localPort) return `http://${host}`;
  }
  return `http://${reached}`;
}

async function handle<Caller>(setup: ServerSetup<Caller>, request: IncomingMessage): Promise<Reply> {
  const origin = requestOrigin(request);
  // A path that starts `//` (or `/\`, a slash to URL) would be read as a host and a path: a client
  // whose base URL ends in a slash sends `//api/v1/...`, which routes as `/api/v1/...`.
  const url = URL.parse((request.url ?? '/').replace(/^[/\\]+/, '/'), origin);
  if (url === null) throw badRequest(`malformed request target ${JSON.stringify((request.url ?? '').slice(0, 100))}`);
  const match = setup.router.match(request.method ?? 'GET', url.pathname);
  if (match.kind === 'none') throw new HttpError(404, `no such endpoint: ${request.method} ${url.pathname}`);
  const caller = await setup.identify(request, url);
  if (match.kind === 'wrong-method') {
    // 404 as for any other unknown endpoint (the real service's set of statuses has no 405)
    throw new HttpError(404, `no such endpoint: ${request.method} ${url.pathname} (use ${match.allowed.join(' or ')})`, {
      allow: match.allowed.join(', '),
    });
  }
  setup.admit?.(caller, request.method ?? 'GET', match.pattern);
  return match.handler({ request, url, params: match.params, caller, origin });
}

export interface HttpServer {
  server: Server;
  /** Resolves once no request is being handled, so storage can close under none. */
  idle(): Promise<void>;
}

export function createHttpServer<Caller>(setup: ServerSetup<Caller>): HttpServer {
  const inFlight = new Set<Promise<void>>();
  /** Requests being answered on each connection: a refusal of the parser's must not cut into an answer. */
  const answering = new WeakMap<Duplex, number>();
  const server = createServer((request, response) => {
    const { socket } = request;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    response.once('close', () => answering.set(socket, answering.get(socket)! - 1));
    const answered = handle(setup, request)
      .catch(errorReply)
      .then((reply) =>
        send(request, response, reply, setup.compression ?? 'auto', setup.lingerMillis).finally(() => whenSent(response, reply)),
      )
      .catch((error: unknown) => {
        // a client gone mid-answer is not a failure of the service's
        if (!socket.destroyed) console.error('[service] could not answer:', error);
        response.destroy();
      })
      .finally(() => inFlight.delete(answered));
    inFlight.add(answered);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (socket.writable && !answering.get(socket) && error.code !== 'ECONNRESET') socket.end(parserRefusal(error));
    socket.destroy();
  });
  // once listening, a failed accept (out of file descriptors) is the machine's state, not a reason to stop
  server.once('listening', () => server.on('error', (error) => console.error('[service] could not accept a connection:', error)));
  return { server, idle: async () => void (await Promise.all(inFlight)) };
}

/**
 * The answer to a request Node's parser refused (a malformed request line or header, headers too
 * large or too slow), in the service's form.
 */
function parserRefusal(error: NodeJS.ErrnoException): string {
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'the request was not sent in time']
        : [400, 'Bad Request', `malformed request (${error.code ?? 'unreadable'})`];
  const body = JSON.stringify({ error: message });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
