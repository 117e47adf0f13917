import { createServer, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, type RetryPolicy } from '../../../../main/core/service-client/index.ts';
import { createTransport } from '../../../../main/core/service-client/request.ts';
import { listenOnLoopback } from '../fake-service.ts';

// The timeout is a wait for the answer to begin and then for each next piece of its body, never a
// limit on the whole transfer: a real server on loopback trickles a body for longer than the
// timeout (read to its end), or stops sending in the middle of one (given up).

const ONCE: RetryPolicy = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 };
const TIMEOUT_MS = 400;
const PIECES = 40;
const GAP_MS = 25;

let server: { baseUrl: string; close(): Promise<void> } | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A 200 whose body is written as `write` says; the answer's headers go out at once. */
async function serving(write: (response: ServerResponse) => void) {
  server = await listenOnLoopback(
    createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.flushHeaders();
      write(response);
    }),
  );
  return server.baseUrl;
}

/** `{"queries":[...],"total":N}` in PIECES pieces, one each GAP_MS: 1 s in all, well past the timeout. */
function trickle(response: ServerResponse, stopAfter = PIECES): void {
  const parts = [
    '{"queries":[',
    ...Array.from({ length: PIECES - 2 }, (_, i) => `${i === 0 ? '' : ','}{"id":${i}}`),
    `],"total":${PIECES - 2}}`,
  ];
  let sent = 0;
  const next = () => {
    response.write(parts[sent]);
    sent += 1;
    if (sent === PIECES) response.end();
    else if (sent < stopAfter) setTimeout(next, GAP_MS);
  };
  next();
}

describe('an answer that keeps coming', () => {
  it('is read to its end, however long it takes in all', async () => {
    const baseUrl = await serving((response) => trickle(response));
    const transport = createTransport({ baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE, timeoutMs: TIMEOUT_MS });
    const listed = await transport.raw({ method: 'GET', path: '/queries' });
    expect(listed.ok).toBe(true);
    expect(listed.ok && (JSON.parse(listed.data.text) as { total: number }).total).toBe(PIECES - 2);
  });

  it('is read to its end when streamed to a consumer, whose own time is not counted', async () => {
    const baseUrl = await serving((response) => trickle(response));
    const transport = createTransport({ baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE, timeoutMs: TIMEOUT_MS });
    let pieces = 0;
    const read = await transport.stream({ method: 'GET', path: '/queries' }, async (body) => {
      let text = '';
      for await (const piece of body) {
        text += Buffer.from(piece).toString();
        // longer than the timeout once, in the reader: the service is not waited on then
        if (pieces++ === 1) await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
      }
      return text;
    });
    expect(read.ok && (JSON.parse(read.data.value) as { total: number }).total).toBe(PIECES - 2);
  });
});

describe('an answer that stops coming', () => {
  it('ends with a timeout that says the answer stopped, not that none came', async () => {
    const baseUrl = await serving((response) => trickle(response, 5));
    const client = createServiceClient({ baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE, timeoutMs: TIMEOUT_MS });
    expect(await client.queries.list()).toEqual({
      ok: false,
      error: {
        kind: 'timeout',
        status: null,
        message: `The answer from ${baseUrl} stopped coming: nothing more of it came for 1 s.`,
      },
    });
  });

  it('ends the same way when streamed to a consumer', async () => {
    const baseUrl = await serving((response) => trickle(response, 5));
    const transport = createTransport({ baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE, timeoutMs: TIMEOUT_MS });
    const read = await transport.stream({ method: 'GET', path: '/queries' }, async (body) => {
      for await (const _ of body);
      return null;
    });
    expect(read).toMatchObject({ ok: false, error: { kind: 'timeout', message: expect.stringContaining('stopped coming') } });
  });
});
