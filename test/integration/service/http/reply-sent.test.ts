import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompressionMode } from '../../../../main/service/http/compression.ts';
import { Router, type Reply } from '../../../../main/service/http/router.ts';
import { createHttpServer, type HttpServer } from '../../../../main/service/http/server.ts';

// A page's body may be memory that is used again once the page is sent: the server says when its
// reply is no longer read, never before the body is written out, and also when the client goes.

const BODY_BYTES = 64 * 1024 * 1024;

let server: HttpServer | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.server.close(resolve));
  server = null;
});

async function serve(reply: () => Reply, compression: CompressionMode = 'auto'): Promise<number> {
  const router = new Router<null>().add('GET', '/page', async () => reply());
  server = createHttpServer({ router, identify: async () => null, compression, lingerMillis: 5000 });
  await new Promise<void>((resolve) => server!.server.listen(0, '127.0.0.1', resolve));
  return (server.server.address() as AddressInfo).port;
}

/** Asks for the page and answers the response, not read yet. */
function ask(port: number, headers: Record<string, string> = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => http.get({ port, host: '127.0.0.1', path: '/page', headers }, resolve).on('error', reject));
}

function readAll(response: http.IncomingMessage): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    response.on('data', (chunk: Buffer) => (bytes += chunk.length));
    response.on('end', () => resolve(bytes));
    response.on('error', reject);
    response.resume();
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server whose one page is `bytes` long, and how many times its reply was told it was sent. */
async function countingServer(bytes: number, compression: CompressionMode = 'auto'): Promise<{ port: number; sent: () => number }> {
  let sent = 0;
  const port = await serve(() => ({ body: [Buffer.alloc(bytes, 'a')], sent: () => sent++ }), compression);
  return { port, sent: () => sent };
}

/** Asks for the page and reads none of it yet. */
async function askAndHold(port: number): Promise<http.IncomingMessage> {
  const response = await ask(port);
  response.pause();
  return response;
}

describe('a reply whose body is sent', () => {
  it('is told so once, after a client that reads slowly has had all of it', async () => {
    const { port, sent } = await countingServer(BODY_BYTES);
    const response = await askAndHold(port);
    // more than the sockets hold: the body cannot be written out while the client does not read
    await pause(300);
    expect(sent()).toBe(0);
    expect(await readAll(response)).toBe(BODY_BYTES);
    await expect.poll(sent).toBe(1);
    await pause(50);
    expect(sent()).toBe(1);
  });

  it('is told so when the client goes before it has all of it', async () => {
    const { port, sent } = await countingServer(BODY_BYTES);
    const response = await askAndHold(port);
    await pause(100);
    expect(sent()).toBe(0);
    response.destroy();
    await expect.poll(sent).toBe(1);
  });

  it('is told so after its body is compressed and sent', async () => {
    const { port, sent } = await countingServer(1024 * 1024, 'always');
    const response = await ask(port, { 'accept-encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(await readAll(response)).toBeLessThan(1024 * 1024);
    await expect.poll(sent).toBe(1);
  });
});
