import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for the service on loopback, answering whatever the test scripts: for testing the
// client's handling of answers the real embedded service never gives (errors, odd bodies, stalls).

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeAnswer {
  status?: number;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answers (until the server closes): for timeouts and aborts. */
  stall?: boolean;
  /** Drops the connection without an answer: a network error. */
  reset?: boolean;
  /** Sends the headers (the whole body's length among them) and this many bytes of the body, then drops the connection. */
  cutAfter?: number;
}

export interface FakeService {
  baseUrl: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export async function startFakeService(answer: (request: FakeRequest) => FakeAnswer): Promise<FakeService> {
  const requests: FakeRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const request = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(request);
      const reply = answer(request);
      if (reply.stall) return;
      if (reply.reset) {
        req.socket.destroy();
        return;
      }
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status ?? 200, {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(text)),
        ...reply.headers,
      });
      if (reply.cutAfter === undefined) res.end(text);
      else res.write(Buffer.from(text).subarray(0, reply.cutAfter), () => req.socket.destroy());
    });
  });
  return { ...(await listenOnLoopback(server)), requests };
}

/** Listens on a free loopback port; `close` also drops the connections still open (stalled ones too). */
export async function listenOnLoopback(server: Server): Promise<{ baseUrl: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
