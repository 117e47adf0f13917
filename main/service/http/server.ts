import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HttpError } from './http-error.ts';
import type { Reply, Router } from './router.ts';

export interface ServerSetup<Caller> {
  router: Router<Caller>;
  /** Who calls; throws an HttpError (401) when the request carries no valid credentials. */
  identify(request: IncomingMessage, url: URL): Promise<Caller>;
  /** Last check before the handler runs (rate limits); throws an HttpError to refuse. */
  admit?(caller: Caller, method: string, path: string): void;
}

function send(response: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let body: string;
  if (reply.text !== undefined) {
    body = reply.text;
    headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8';
  } else {
    body = JSON.stringify(reply.json ?? {});
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  headers['content-length'] = String(Buffer.byteLength(body));
  response.writeHead(reply.status ?? 200, headers);
  response.end(body);
}

function errorReply(error: unknown): Reply {
  if (error instanceof HttpError) return { status: error.status, json: { error: error.message }, headers: error.headers };
  console.error('[service] internal error:', error);
  return { status: 500, json: { error: 'Internal error' } };
}

async function handle<Caller>(setup: ServerSetup<Caller>, request: IncomingMessage): Promise<Reply> {
  const host = request.headers.host ?? 'localhost';
  const origin = `http://${host}`;
  const url = new URL(request.url ?? '/', origin);
  const match = setup.router.match(request.method ?? 'GET', url.pathname);
  if (match.kind === 'none') throw new HttpError(404, `no such endpoint: ${request.method} ${url.pathname}`);
  const caller = await setup.identify(request, url);
  if (match.kind === 'wrong-method') {
    // 404 as for any other unknown endpoint (the real service's set of statuses has no 405)
    throw new HttpError(404, `no such endpoint: ${request.method} ${url.pathname} (use ${match.allowed.join(' or ')})`, {
      allow: match.allowed.join(', '),
    });
  }
  setup.admit?.(caller, request.method ?? 'GET', url.pathname);
  return match.handler({ request, url, params: match.params, caller, origin });
}

export interface HttpServer {
  server: Server;
  /** Resolves once no request is being handled, so storage can close under none. */
  idle(): Promise<void>;
}

export function createHttpServer<Caller>(setup: ServerSetup<Caller>): HttpServer {
  const inFlight = new Set<Promise<void>>();
  const server = createServer((request, response) => {
    const answered = handle(setup, request)
      .catch(errorReply)
      .then((reply) => send(response, reply))
      .catch((error: unknown) => {
        console.error('[service] could not answer:', error);
        response.destroy();
      })
      .finally(() => inFlight.delete(answered));
    inFlight.add(answered);
  });
  return { server, idle: async () => void (await Promise.all(inFlight)) };
}
