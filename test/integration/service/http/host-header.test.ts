import { get } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_QUERY, startHarness, type Harness } from '../service-harness.ts';

// The Host header is the client's to write: a malformed one is a 400 (before anything else), and a
// foreign one never becomes the origin of a link that carries the key.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ maxPageRows: 2 });
});
afterAll(() => h.stop());

/** One raw HTTP/1.1 request, so the Host header can be anything at all. */
function raw(path: string, host: string | null): Promise<{ status: number }> {
  const { port } = new URL(h.service.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', reject);
    socket.on('end', () => resolve({ status: Number(text.split(' ')[1]) }));
    const hostLine = host === null ? '' : `Host: ${host}\r\n`;
    socket.end(`GET ${path} HTTP/1.1\r\n${hostLine}X-Dune-API-Key: ${h.key}\r\nConnection: close\r\n\r\n`);
  });
}

/** A JSON answer to a GET with the Host header given. */
function getWithHost(path: string, host: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    get(`${h.service.baseUrl}${path}`, { headers: { host, 'x-dune-api-key': h.key } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
    }).on('error', reject);
  });
}

describe('the Host header', () => {
  it('answers 400 to a malformed one, without a stack trace in the log', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const host of ['%', '[', 'a b', '', 'x:99999', '127.0.0.1:1:2']) {
      const answer = await raw('/api/v1/queries', host);
      expect(answer.status, `Host: ${JSON.stringify(host)}`).toBe(400);
    }
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('never builds next_uri on a foreign host, even when the key is in the URL', async () => {
    const executionId = await h.execute(DEMO_QUERY, {});
    await h.waitUntilFinished(executionId);
    const path = `/api/v1/execution/${executionId}/results?limit=2&api_key=${h.key}`;
    const foreign = await getWithHost(path, 'evil.example');
    expect(new URL(foreign.next_uri as string).origin).toBe(new URL(h.service.baseUrl).origin);
    const own = await getWithHost(path, `localhost:${new URL(h.service.baseUrl).port}`);
    expect(new URL(own.next_uri as string).host).toBe(`localhost:${new URL(h.service.baseUrl).port}`);
  });
});
