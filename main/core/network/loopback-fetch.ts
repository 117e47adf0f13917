import type { ClientRequest, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Fetch, FetchedResponse } from '../service-client/index.ts';

// The Local account reaches the embedded service over Node's http module, not its fetch: the
// window's first screen asks the service for its queries, and a thread that has loaded fetch (its
// undici and web streams) holds several MB more for as long as it runs.

// required, not imported (eslint.config.ts says why)
const { request } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

/**
 * A fetch for plain-http services on this computer, answering what the transport reads of a
 * response. It fails as Node's fetch does, with a TypeError whose cause is the network's error
 * (ECONNREFUSED…), so that the failure is said in the same words; an aborted signal ends the
 * request and the reading of its body. It asks for no compression, which nothing on loopback needs.
 */
export const loopbackFetch: Fetch = (url, init) =>
  new Promise<FetchedResponse>((resolve, reject) => {
    if (url.protocol !== 'http:') throw new TypeError(`Only plain-http addresses are reached this way, not ${url.protocol}//${url.host}.`);
    const headers = init.headers ?? {};
    if (Array.isArray(headers) || typeof (headers as { get?: unknown }).get === 'function')
      throw new TypeError('The headers of a request must be given as a plain object.');
    const outgoing = request(
      url,
      { method: init.method ?? 'GET', headers: headers as Record<string, string>, signal: init.signal ?? undefined },
      (incoming) => resolve(answerOf(incoming)),
    );
    // once answered, a later error shows in the body's reading
    outgoing.on('error', (error) => reject(new TypeError(`The request to ${url.origin} failed.`, { cause: error })));
    writeBody(outgoing, init.body).catch((error: unknown) => outgoing.destroy(error as Error));
  });

function answerOf(incoming: IncomingMessage): FetchedResponse {
  return {
    status: incoming.statusCode ?? 0,
    headers: {
      get(name) {
        const value = incoming.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body: incoming,
    async text() {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      return new TextDecoder().decode(Buffer.concat(chunks));
    },
  };
}

/** Sends the body, a stream of them as it comes (each written once the socket has taken the last), and ends the request. */
async function writeBody(outgoing: ClientRequest, body: RequestInit['body']): Promise<void> {
  if (body === undefined || body === null) return void outgoing.end();
  if (typeof body === 'string' || body instanceof Uint8Array) return void outgoing.end(body);
  if (typeof body !== 'object' || !(Symbol.asyncIterator in body))
    throw new TypeError('A request body must be text, bytes or an async iterable of bytes.');
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    if (outgoing.destroyed) return;
    if (!outgoing.write(chunk)) await drainedOrClosed(outgoing);
  }
  outgoing.end();
}

/** Resolves once the socket has taken what was written, or the request is gone; leaves no listener behind. */
function drainedOrClosed(outgoing: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done).off('close', done);
      resolve();
    };
    outgoing.on('drain', done).on('close', done);
  });
}
