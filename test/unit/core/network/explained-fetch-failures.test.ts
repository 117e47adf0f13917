import { describe, expect, it } from 'vitest';
import { withExplainedFailures } from '../../../../main/core/network/explained-fetch-failures.ts';
import type { Fetch } from '../../../../main/core/service-client/index.ts';

// What Chromium's stack (Electron's net.fetch) throws is only a message; undici's tests against a
// real proxy and a real self-signed server are in test/integration/web/proxy-fetch.test.ts.

const PROXY = new URL('http://proxy.corp.example:3128');
const target = new URL('https://api.example.com/api/v1/queries');

async function reasonFor(thrown: unknown, proxy: URL | null = null): Promise<unknown> {
  const send: Fetch = async () => {
    throw thrown;
  };
  try {
    await withExplainedFailures(send, () => proxy)(target, {});
  } catch (error) {
    return (error as Error & { cause?: { message?: string } }).cause?.message ?? error;
  }
  throw new Error('expected a failure');
}

describe('network failures in words', () => {
  it("names Chromium's certificate errors, with the code kept", async () => {
    expect(await reasonFor(new TypeError('net::ERR_CERT_AUTHORITY_INVALID'))).toMatch(
      /^its certificate was issued by an authority this computer does not trust \(net::ERR_CERT_AUTHORITY_INVALID\)\. Add the certificate/,
    );
    expect(await reasonFor(new TypeError('net::ERR_CERT_DATE_INVALID'))).toMatch(/has expired or is not valid yet/);
  });

  it("names Chromium's proxy errors, with the proxy when the host knows it", async () => {
    expect(await reasonFor(new TypeError('net::ERR_PROXY_CONNECTION_FAILED'), PROXY)).toBe(
      'the proxy at proxy.corp.example:3128 could not be reached (net::ERR_PROXY_CONNECTION_FAILED)',
    );
    expect(await reasonFor(new TypeError('net::ERR_TUNNEL_CONNECTION_FAILED'))).toBe(
      'the proxy refused to connect to the service (net::ERR_TUNNEL_CONNECTION_FAILED)',
    );
  });

  it('leaves a refused connection to the service itself, and unknown errors, as they were', async () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:443'), { code: 'ECONNREFUSED', port: 443 }),
    });
    const throwing =
      (error: unknown): Fetch =>
      async () => {
        throw error;
      };
    await expect(withExplainedFailures(throwing(refused), () => PROXY)(target, {})).rejects.toBe(refused);
    const odd = new TypeError('something else');
    await expect(withExplainedFailures(throwing(odd), () => PROXY)(target, {})).rejects.toBe(odd);
  });

  it('turns a proxy asking for credentials into advice, and passes other answers through', async () => {
    const answering =
      (status: number): Fetch =>
      async () =>
        new Response('no', { status });
    await expect(withExplainedFailures(answering(407), () => PROXY)(target, {})).rejects.toMatchObject({
      cause: { message: expect.stringContaining('HTTP 407') },
    });
    expect((await withExplainedFailures(answering(407), () => null)(target, {})).status).toBe(407);
    expect((await withExplainedFailures(answering(403), () => PROXY)(target, {})).status).toBe(403);
  });
});
