import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function raw(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${h.service.baseUrl}${path}`, { headers });
  const body: Json = await response.json();
  return { status: response.status, type: response.headers.get('content-type'), body };
}

describe('API keys', () => {
  it('refuses a missing or wrong key with 401 and the real message', async () => {
    expect(await raw('/api/v1/queries')).toMatchObject({ status: 401, body: { error: 'invalid API Key' } });
    expect(await raw('/api/v1/queries', { 'X-DUNE-API-KEY': 'not-a-key' })).toMatchObject({
      status: 401,
      body: { error: 'invalid API Key' },
    });
    expect(await raw('/api/v1/queries?api_key=not-a-key')).toMatchObject({ status: 401 });
  });

  it('accepts the header in any case, and the api_key parameter', async () => {
    for (const name of ['X-DUNE-API-KEY', 'x-dune-api-key', 'X-Dune-Api-Key', 'X-Dune-API-Key']) {
      expect((await raw('/api/v1/queries', { [name]: h.key })).status).toBe(200);
    }
    expect((await raw(`/api/v1/queries?api_key=${encodeURIComponent(h.key)}`)).status).toBe(200);
  });

  it('checks the key before the execution id', async () => {
    const { status } = await raw('/api/v1/execution/nonsense/status', { 'x-dune-api-key': 'wrong' });
    expect(status).toBe(401);
  });

  it('keeps the demo key the host kept across restarts of one data directory', async () => {
    const before = h.service.demoApiKey!;
    await h.restart({ demoApiKey: before });
    expect(h.service.demoApiKey).toBe(before);
    expect((await raw('/api/v1/queries', { 'x-dune-api-key': before })).status).toBe(200);
  });
});

describe('routes', () => {
  it('answers an unknown route with 404 JSON', async () => {
    const { status, type, body } = await raw('/api/v1/nothing-here', { 'x-dune-api-key': h.key });
    expect(status).toBe(404);
    expect(type).toMatch(/^application\/json/);
    expect(body.error).toMatch(/nothing-here/);
  });

  it('answers a known route with the wrong method with 404 JSON naming the method to use', async () => {
    const response = await fetch(`${h.service.baseUrl}/api/v1/query/1/execute`, { headers: { 'x-dune-api-key': h.key } });
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBe('POST');
    const body: Json = await response.json();
    expect(body.error).toBe('no such endpoint: GET /api/v1/query/1/execute (use POST)');
  });
});

describe('a custom service name', () => {
  it('reads the key from X-<NAME>-API-KEY only', async () => {
    const other = await startHarness({ serviceName: 'ACME' });
    try {
      const at = (headers: Record<string, string>) => fetch(`${other.service.baseUrl}/api/v1/queries`, { headers }).then((r) => r.status);
      expect(await at({ 'X-Acme-Api-Key': other.key })).toBe(200);
      expect(await at({ 'X-DUNE-API-KEY': other.key })).toBe(401);
    } finally {
      await other.stop();
    }
  });
});
