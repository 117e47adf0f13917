import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkConnection } from '../../../main/core/accounts/check-connection.ts';
import { serviceFailure } from '../../../main/core/failures.ts';
import { createServiceClient, type RetryPolicy } from '../../../main/core/service-client/index.ts';
import { networkFailureText } from '../../../main/core/service-client/network-words.ts';
import { createTransport } from '../../../main/core/service-client/request.ts';
import { startFakeService, type FakeAnswer, type FakeService } from '../core/fake-service.ts';
import { expectSentences, expectServiceWords, expectWellSaid } from './read-words.ts';

// Every message the service client can give the app, from a real service on loopback answering
// each status, a closed port, a service that never answers and an address outside the API root.

const ONCE: RetryPolicy = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 };
const SHORT_WAITS: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 50 };

let fake: FakeService | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function answered(answer: FakeAnswer, retry: RetryPolicy = ONCE) {
  fake = await startFakeService(() => answer);
  const listed = await createServiceClient({ baseUrl: fake.baseUrl, serviceName: 'DUNE', apiKey: 'key', retry }).queries.list();
  expect(listed.ok).toBe(false);
  return listed.ok ? null! : serviceFailure(listed.error).error;
}

async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const STATUSES = [400, 401, 402, 403, 404, 409, 413, 429, 500, 503];

describe('what the service client says', () => {
  it.each(STATUSES)('HTTP %i with no words of the service: ours, not restating the heading', async (status) => {
    const error = await answered({ status, body: '' });
    expect(error.message).toBe(`The service answered with HTTP ${status} without saying why.`);
    expectWellSaid(error);
  });

  it.each(STATUSES)('HTTP %i with the service words: kept exact', async (status) => {
    const error = await answered({ status, body: { error: `refused for a reason of ${status}` } });
    expect(error.message).toBe(`refused for a reason of ${status}`);
    expectServiceWords(error, `refused for a reason of ${status}`);
  });

  it('a body that is not JSON, or JSON without `error`: what it began with, quoted', async () => {
    const html = await answered({ status: 502, body: '<html>\n  <h1>Bad gateway</h1>\n</html>' });
    expect(html.message).toBe(
      'The service answered with HTTP 502 without saying why; its answer began: “<html> <h1>Bad gateway</h1> </html>”.',
    );
    expectWellSaid(html);
    const other = await answered({ status: 400, body: { message: 'wrong field' } });
    expect(other.message).toBe('The service answered with HTTP 400 without saying why; its answer began: “{"message":"wrong field"}”.');
    expectWellSaid(other);
  });

  it('a wait longer than the client waits, asked by Retry-After: the time to try again', async () => {
    const ours = await answered({ status: 429, body: '', headers: { 'Retry-After': '3600' } }, SHORT_WAITS);
    expect(ours.message).toBe('The service answered with HTTP 429 without saying why (try again in 3600 s).');
    expectWellSaid(ours);
    const theirs = await answered({ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'Retry-After': '3600' } }, SHORT_WAITS);
    expect(theirs.message).toBe('Rate limit exceeded (try again in 3600 s)');
    expectServiceWords(theirs, 'Rate limit exceeded');
  });

  it('a body of the wrong shape on success', async () => {
    fake = await startFakeService(() => ({ body: { unexpected: true } }));
    const listed = await createServiceClient({ baseUrl: fake.baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE }).queries.list();
    expect(listed.ok ? '' : listed.error.message).toBe('The service answered GET /queries with an unexpected body.');
    if (!listed.ok) expectWellSaid(serviceFailure(listed.error).error);
  });

  it('a closed port: the refused connection in words, its code kept', async () => {
    const baseUrl = await closedPort();
    const listed = await createServiceClient({ baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE }).queries.list();
    expect(listed.ok ? '' : listed.error.message).toBe(`Nothing accepted the connection to ${baseUrl}: it was refused (ECONNREFUSED).`);
    if (!listed.ok) expectWellSaid(serviceFailure(listed.error).error);
  });

  it('a service that never answers: how long was waited, and for whom', async () => {
    fake = await startFakeService(() => ({ stall: true }));
    const listed = await createServiceClient({
      baseUrl: fake.baseUrl,
      serviceName: 'DUNE',
      apiKey: 'key',
      retry: ONCE,
      timeoutMs: 200,
    }).queries.list();
    expect(listed.ok ? '' : listed.error.message).toBe(`No answer came from ${fake.baseUrl} within 1 s.`);
    if (!listed.ok) expectWellSaid(serviceFailure(listed.error).error);
  });

  it('an address outside the API root: nothing sent, and why', async () => {
    fake = await startFakeService(() => ({ body: {} }));
    const transport = createTransport({ baseUrl: fake.baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE });
    const refused = await transport.json({ method: 'GET', url: 'http://elsewhere.example/api/v1/queries' }, () => ({}));
    expect(refused.ok ? '' : refused.error.message).toBe(
      `Nothing was sent to http://elsewhere.example/api/v1/queries: the API key goes only to addresses under ${fake.baseUrl}/api/v1.`,
    );
    expect(fake.requests).toHaveLength(0);
    if (!refused.ok) expectWellSaid(serviceFailure(refused.error).error);
  });

  it('each network code it knows in words, and others with their own words', () => {
    const url = new URL('https://api.example.com/api/v1/queries');
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'UND_ERR_SOCKET',
      'ENOTFOUND',
      'EAI_AGAIN',
      'ETIMEDOUT',
      'UND_ERR_CONNECT_TIMEOUT',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'ECONNABORTED',
      'EPIPE',
      'EWEIRD',
    ]) {
      const text = networkFailureText(
        new TypeError('fetch failed', { cause: Object.assign(new Error(`${code.toLowerCase()} happened.`), { code }) }),
        url,
      );
      expect(text).toMatch(new RegExp(`\\(${code}\\)\\.$`));
      expectSentences(text);
    }
    expect(
      networkFailureText(
        new TypeError('fetch failed', { cause: { message: 'the proxy at p:3128 could not be reached (ECONNREFUSED)' } }),
        url,
      ),
    ).toBe('The connection to https://api.example.com failed: the proxy at p:3128 could not be reached (ECONNREFUSED).');
    expectSentences(networkFailureText(new Error('socket hang up.'), url));
    expectSentences(
      networkFailureText(new TypeError('fetch failed', { cause: new Error('bad port') }), new URL('http://127.0.0.1:9/api/v1')),
    );
  });
});

describe('what checking an account says', () => {
  async function checked(answer: FakeAnswer) {
    fake = await startFakeService(() => answer);
    const result = await checkConnection({ baseUrl: fake.baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE });
    expect(result.ok).toBe(false);
    return result.ok ? null! : result.error;
  }

  it('a refused key: the service words once, under the heading that says it was refused', async () => {
    const refused = await checked({ status: 401, body: { error: 'invalid API Key' } });
    expectServiceWords(refused, 'invalid API Key');
    expectWellSaid(await checked({ status: 401, body: '' }));
  });

  it('an address with no query service: the base URL named, and its advice', async () => {
    const missing = await checked({ status: 404, body: '<html>nothing here</html>' });
    expect(missing.message).toBe(`The address ${fake!.baseUrl} has no query service API at /api/v1 (HTTP 404). Check the base URL.`);
    expectWellSaid(missing);
    const other = await checked({ status: 200, body: { hello: 'world' } });
    expect(other.message).toBe(`The address ${fake!.baseUrl} answers, but not as the query service does. Check the base URL.`);
    expectWellSaid(other);
  });

  it('a service that cannot be reached', async () => {
    const baseUrl = await closedPort();
    const result = await checkConnection({ baseUrl, serviceName: 'DUNE', apiKey: 'key', retry: ONCE });
    expect(result.ok ? '' : result.error.message).toMatch(/\(ECONNREFUSED\)\.$/);
    if (!result.ok) expectWellSaid(result.error);
  });
});
