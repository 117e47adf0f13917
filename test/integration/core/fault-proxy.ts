import { createServer, request as forward, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './fake-service.ts';

// A proxy on loopback in front of a real service that spoils the requests a test picks: an error
// status, a dropped connection, no answer at all, an answer broken off after its first bytes, or
// one held back until the test lets it go. The rest pass through untouched, Host header included,
// so the links the service hands out (next_uri) point back at the proxy.

export type Fault =
  { status: number; body?: string; headers?: Record<string, string> } | { heldUntil: Promise<void> } | 'reset' | 'stall' | 'cut';

export interface FaultProxy {
  baseUrl: string;
  /** Every request as `METHOD path?query`, spoiled or not, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startFaultProxy(
  upstream: string,
  faultFor: (request: IncomingMessage, count: number) => Fault | null,
): Promise<FaultProxy> {
  const target = new URL(upstream);
  const requests: string[] = [];
  const server = createServer(async (incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    let fault = faultFor(incoming, requests.length);
    if (fault !== null && typeof fault === 'object' && 'heldUntil' in fault) {
      await fault.heldUntil;
      fault = null;
    }
    if (fault === 'stall') return;
    if (fault === 'reset') {
      incoming.socket.destroy();
      return;
    }
    if (fault !== null && fault !== 'cut') {
      outgoing
        .writeHead(fault.status, { 'Content-Type': 'application/json', ...fault.headers })
        .end(fault.body ?? JSON.stringify({ error: `injected ${fault.status}` }));
      return;
    }
    const passed = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        if (fault !== 'cut') return void answer.pipe(outgoing);
        answer.once('data', (chunk: Buffer) =>
          outgoing.write(chunk.subarray(0, Math.ceil(chunk.length / 2)), () => incoming.socket.destroy()),
        );
      },
    );
    passed.on('error', () => outgoing.destroy());
    incoming.pipe(passed);
  });
  return { ...(await listenOnLoopback(server)), requests };
}
