import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackFetch } from '../../../../main/core/network/loopback-fetch.ts';
import { createTransport, type Fetch } from '../../../../main/core/service-client/request.ts';
import { listenOnLoopback } from '../fake-service.ts';

// The Local account's way to its embedded service: Node's http module in place of its fetch. It
// must behave as fetch does wherever the client relies on it, so the client's cases run with both.

type Handler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

let closeServer: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeServer?.();
  closeServer = null;
});

async function serve(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, response, Buffer.concat(chunks)));
  });
  const listening = await listenOnLoopback(server);
  closeServer = listening.close;
  return listening.baseUrl;
}

async function readAll(body: AsyncIterable<Uint8Array> | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body ?? []) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('loopbackFetch', () => {
  it('sends the method, headers and body, and answers the status, headers and text', async () => {
    const seen: unknown[] = [];
    const base = await serve((request, response, body) => {
      seen.push([request.method, request.url, request.headers['x-dune-api-key'], request.headers['content-type'], body.toString()]);
      response.setHeader('X-Many', ['a', 'b']);
      response.writeHead(201, { 'Content-Type': 'text/plain; charset=utf-8' });
      // a character of three bytes split between two writes, after a byte-order mark fetch drops too
      const text = Buffer.from('\uFEFFrows: ✓ done');
      response.write(text.subarray(0, 11));
      response.end(text.subarray(11));
    });
    const answer = await loopbackFetch(new URL(`${base}/api/v1/query/7?x=1`), {
      method: 'POST',
      headers: { 'X-DUNE-API-KEY': 'k', 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    expect([answer.status, answer.headers.get('content-type'), answer.headers.get('X-MANY'), answer.headers.get('absent')]).toEqual([
      201,
      'text/plain; charset=utf-8',
      'a, b',
      null,
    ]);
    expect(await answer.text()).toBe('rows: ✓ done');
    expect(seen).toEqual([['POST', '/api/v1/query/7?x=1', 'k', 'application/json', '{"a":1}']]);
  });

  it('sends bytes, and a body given as it comes, whole and in order', async () => {
    const received: string[] = [];
    const base = await serve((_request, response, body) => {
      received.push(sha(body));
      response.end();
    });
    const bytes = new Uint8Array(3_000_000).map((_, i) => (i * 7) % 251);
    await loopbackFetch(new URL(base), { method: 'PUT', body: bytes });
    const pieces = async function* () {
      for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
    };
    await loopbackFetch(new URL(base), { method: 'POST', body: pieces() as unknown as RequestInit['body'], duplex: 'half' } as RequestInit);
    expect(received).toEqual([sha(bytes), sha(bytes)]);
  });

  it('waits for the socket through a long streamed upload without gathering listeners', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const received: number[] = [];
    const base = await serve((_request, response, body) => {
      received.push(body.length);
      response.end();
    });
    const pieces = async function* () {
      for (let i = 0; i < 2_000; i++) yield new Uint8Array(16_384).fill(i % 256);
    };
    try {
      await loopbackFetch(new URL(base), {
        method: 'POST',
        body: pieces() as unknown as RequestInit['body'],
        duplex: 'half',
      } as RequestInit);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(received).toEqual([2_000 * 16_384]);
    expect(warnings).toEqual([]);
  });

  it('hands the body over as it arrives, not once it has ended', async () => {
    let finish!: () => void;
    const rest = new Promise<void>((resolve) => (finish = resolve));
    const base = await serve((_request, response) => {
      response.write('first,');
      void rest.then(() => response.end('second'));
    });
    const answer = await loopbackFetch(new URL(base), { method: 'GET' });
    const reading = answer.body![Symbol.asyncIterator]();
    expect(Buffer.from((await reading.next()).value as Uint8Array).toString()).toBe('first,');
    finish();
    expect(Buffer.from((await reading.next()).value as Uint8Array).toString()).toBe('second');
    expect((await reading.next()).done).toBe(true);
  });

  it('fails as fetch does when nothing listens, with the network error as its cause', async () => {
    const base = await serve(() => undefined);
    await closeServer!();
    closeServer = null;
    const failure = await loopbackFetch(new URL(base), { method: 'GET' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(((failure as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('ends on an aborted signal, before the answer and while its body is read', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/part') response.write('some');
    });
    const before = new AbortController();
    const unanswered = loopbackFetch(new URL(`${base}/never`), { method: 'GET', signal: before.signal });
    before.abort();
    await expect(unanswered).rejects.toThrow();
    const during = new AbortController();
    const answer = await loopbackFetch(new URL(`${base}/part`), { method: 'GET', signal: during.signal });
    const reading = readAll(answer.body);
    during.abort();
    await expect(reading).rejects.toThrow();
  });

  it('refuses what it does not send: other schemes, headers not given as an object', async () => {
    await expect(loopbackFetch(new URL('https://127.0.0.1:1/'), { method: 'GET' })).rejects.toThrow('Only plain-http addresses');
    await expect(loopbackFetch(new URL('http://127.0.0.1:1/'), { method: 'GET', headers: [['a', 'b']] })).rejects.toThrow('plain object');
  });
});

describe.each<[string, Fetch | undefined]>([
  ["Node's fetch", undefined],
  ['loopbackFetch', loopbackFetch],
])('the client over %s', (_name, fetch) => {
  const transportTo = (baseUrl: string, timeoutMs = 5_000) =>
    createTransport({
      baseUrl,
      serviceName: 'DUNE',
      apiKey: 'key',
      fetch,
      timeoutMs,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 20 },
    });

  it('takes a body cut off before its length as a broken one, and reads it again', async () => {
    const WHOLE = 'id\n1\n2\n3\n4\n';
    let asked = 0;
    const base = await serve((request, response) => {
      asked += 1;
      response.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Length': String(WHOLE.length) });
      if (asked === 1) response.write(WHOLE.slice(0, 5), () => request.socket.destroy());
      else response.end(WHOLE);
    });
    const read = await transportTo(base).stream({ method: 'GET', path: '/x' }, async (body) => (await readAll(body)).toString());
    expect(read).toMatchObject({ ok: true, data: { value: WHOLE } });
    expect(asked).toBe(2);
  });

  it('says in words that nothing accepted the connection', async () => {
    const base = await serve(() => undefined);
    await closeServer!();
    closeServer = null;
    const answer = await transportTo(base).json({ method: 'GET', path: '/queries' }, (body) => body);
    expect(answer).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    expect(!answer.ok && answer.error.message).toMatch(
      /^Nothing accepted the connection to http:\/\/127\.0\.0\.1:\d+: it was refused \(ECONNREFUSED\)\.$/,
    );
  });

  it('gives up on a service that does not answer in time, and on a request cancelled', async () => {
    const base = await serve(() => undefined);
    const late = await transportTo(base, 200).json({ method: 'POST', path: '/query/1/execute' }, (body) => body);
    expect(late).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    const controller = new AbortController();
    const cancelled = transportTo(base).json({ method: 'POST', path: '/query/1/execute', signal: controller.signal }, (body) => body);
    controller.abort();
    expect(await cancelled).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });
});

describe("the host's modules", () => {
  // both threads' start costs: Node's fetch (node:http imported, or fetch used) and the lexing of
  // CommonJS packages for their exports (one imported rather than required)
  it("load neither Node's fetch, nor its web streams, nor its lexer of CommonJS, with the Local account's first request made", () => {
    const root = join(import.meta.dirname, '../../../..');
    const script = `
      const { createServer } = (await import('node:module')).createRequire(import.meta.url)('node:http');
      await import(${JSON.stringify(join(root, 'main/web/host.ts'))});
      await import(${JSON.stringify(join(root, 'main/service/index.ts'))});
      const { loopbackFetch } = await import(${JSON.stringify(join(root, 'main/core/network/loopback-fetch.ts'))});
      const server = createServer((_q, r) => r.end('{}')).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      await (await loopbackFetch(new URL('http://127.0.0.1:' + server.address().port + '/'), { method: 'GET' })).text();
      server.close();
      console.log(JSON.stringify(process.moduleLoadList.filter((name) => /undici|webstreams|cjs-module-lexer/.test(name))));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
