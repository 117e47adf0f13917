import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConnection } from '../../../../main/core/accounts/check-connection.ts';
import { startFakeService, type FakeService } from '../fake-service.ts';

// The same service named by base URLs spelled as people type them: each reaches it, with the key,
// at /api/v1; a base no request can go to sends nothing and says why.

let fake: FakeService;
beforeAll(async () => {
  fake = await startFakeService(() => ({ body: { queries: [], total: 0 } }));
});
afterAll(() => fake.close());

const port = () => new URL(fake.baseUrl).port;

describe('a base URL as typed', () => {
  it.each([
    () => `HTTP://127.0.0.1:${port()}`,
    () => `http://127.0.0.1:${port()}/`,
    () => `http://127.0.0.1:${port()}/api`,
    () => `http://127.0.0.1:${port()}/api/v1/`,
    () => `http://LOCALHOST:${port()}`,
    () => `http://Localhost:${port()}/API/../api/v1`,
  ])('reaches the service at /api/v1 (%#)', async (base) => {
    const before = fake.requests.length;
    const checked = await checkConnection({ baseUrl: base(), serviceName: 'DUNE', apiKey: 'key' });
    expect(checked).toMatchObject({ ok: true });
    expect(fake.requests.slice(before).map((request) => [request.path, request.headers['x-dune-api-key']])).toEqual([
      ['/api/v1/queries', 'key'],
    ]);
  });

  it.each([
    [`?x=1`, 'baseUrl must not hold a query string (?x=1)'],
    [`#f`, 'baseUrl must not hold a fragment (#f)'],
  ])('sends nothing with %s, and says why', async (tail, problem) => {
    const before = fake.requests.length;
    const checked = await checkConnection({ baseUrl: `${fake.baseUrl}/${tail}`, serviceName: 'DUNE', apiKey: 'key' });
    expect(checked).toEqual({ ok: false, error: { code: 'bad_request', message: `Nothing was sent: ${problem}.` } });
    expect(fake.requests.length).toBe(before);
  });
});
