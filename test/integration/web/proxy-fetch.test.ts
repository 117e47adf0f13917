import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { createServiceClient, type Fetch } from '../../../main/core/service-client/index.ts';
import { createProxyFetch, type ProxyFetch } from '../../../main/web/proxy-fetch.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core/core-harness.ts';
import { startLoopbackProxy, type LoopbackProxy } from './loopback-proxy.ts';

// The browser host's way out: the real embedded service and a self-signed https server on
// loopback, reached through a real forward proxy on loopback (or straight), as Settings and the
// environment say.

const NO_RETRY = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

let harness: Harness;
let tlsServer: Server;
let tlsUrl: string;
let certDir: string;
/** Proxies and fetches a test opened; a fresh proxy per test, so its log is that test's alone. */
const opened: Array<{ close(): Promise<void> }> = [];

function proxyFetch(setting: () => string, env: NodeJS.ProcessEnv = {}): ProxyFetch {
  const made = createProxyFetch(setting, env);
  opened.push(made);
  return made;
}

function listQueries(baseUrl: string, fetch: Fetch) {
  return createServiceClient({ baseUrl, serviceName: 'DUNE', apiKey: harness.demoApiKey ?? '', fetch, retry: NO_RETRY }).queries.list({
    limit: 5,
  });
}

async function loopbackProxy(): Promise<LoopbackProxy> {
  const proxy = await startLoopbackProxy();
  opened.push(proxy);
  return proxy;
}

/** A port nothing listens on: bound, then let go. */
async function closedPort(): Promise<number> {
  const probe = await startLoopbackProxy();
  await probe.close();
  return Number(new URL(probe.url).port);
}

beforeAll(async () => {
  harness = await startHarness();
  certDir = mkdtempSync(join(tmpdir(), 'querydesk-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  tlsServer = createServer(
    { key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) },
    (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"queries":[]}');
    },
  );
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  tlsUrl = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
  await harness.close();
  rmSync(certDir, { recursive: true, force: true });
});

describe('the browser host fetch', () => {
  afterEach(async () => {
    for (const made of opened.splice(0)) await made.close();
  });

  it('goes through the proxy set in Settings, as absolute-URI requests for an http service', async () => {
    const proxy = await loopbackProxy();
    const listed = await listQueries(harness.baseUrl, proxyFetch(() => proxy.url).fetch);
    expect(listed.ok && listed.data.queries.length).toBeGreaterThan(0);
    expect(proxy.log).toEqual([expect.stringMatching(new RegExp(`^GET ${harness.baseUrl}/api/v1/queries\\?`))]);
  });

  it('follows HTTP_PROXY and NO_PROXY when Settings name no proxy, and the setting wins over them', async () => {
    const proxy = await loopbackProxy();
    const viaEnv = await listQueries(harness.baseUrl, proxyFetch(() => '', { HTTP_PROXY: proxy.url }).fetch);
    expect(viaEnv.ok).toBe(true);
    expect(proxy.log).toHaveLength(1);

    const bypass = await listQueries(
      harness.baseUrl,
      proxyFetch(() => '', { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' }).fetch,
    );
    expect(bypass.ok).toBe(true);
    expect(proxy.log).toHaveLength(1);

    const deadEnvProxy = `http://127.0.0.1:${await closedPort()}`;
    const overridden = await listQueries(harness.baseUrl, proxyFetch(() => proxy.url, { HTTP_PROXY: deadEnvProxy }).fetch);
    expect(overridden.ok).toBe(true);
    expect(proxy.log).toHaveLength(2);
  });

  it('takes a changed proxy setting from the next request on', async () => {
    const proxy = await loopbackProxy();
    let setting = '';
    const { fetch } = proxyFetch(() => setting);
    expect((await listQueries(harness.baseUrl, fetch)).ok).toBe(true);
    expect(proxy.log).toEqual([]);
    setting = proxy.url;
    expect((await listQueries(harness.baseUrl, fetch)).ok).toBe(true);
    expect(proxy.log).toHaveLength(1);
  });

  it('tunnels https with CONNECT, and names a self-signed certificate instead of trusting it', async () => {
    const proxy = await loopbackProxy();
    const tunnelled = await listQueries(tlsUrl, proxyFetch(() => proxy.url).fetch);
    expect(proxy.log).toEqual([`CONNECT ${new URL(tlsUrl).host}`]);
    expect(tunnelled.ok).toBe(false);
    if (tunnelled.ok) return;
    expect(tunnelled.error.message).toContain(
      'its certificate is self-signed and not trusted by this computer (DEPTH_ZERO_SELF_SIGNED_CERT)',
    );

    const direct = await listQueries(tlsUrl, proxyFetch(() => '').fetch);
    expect(direct.ok).toBe(false);
    if (direct.ok) return;
    expect(direct.error.kind).toBe('unreachable');
    expect(direct.error.message).toBe(
      `The connection to ${tlsUrl} failed: its certificate is self-signed and not trusted by this computer (DEPTH_ZERO_SELF_SIGNED_CERT). ` +
        "Add the certificate, or the authority that issued it, to this computer's trusted certificates; Querydesk does not skip certificate checks.",
    );
  });

  it('says so when the proxy cannot be reached, or refuses the tunnel', async () => {
    const port = await closedPort();
    const unreachable = await listQueries(harness.baseUrl, proxyFetch(() => `http://127.0.0.1:${port}`).fetch);
    expect(unreachable.ok).toBe(false);
    if (!unreachable.ok)
      expect(unreachable.error.message).toBe(
        `The connection to ${harness.baseUrl} failed: the proxy at 127.0.0.1:${port} could not be reached (ECONNREFUSED).`,
      );

    const proxy = await loopbackProxy();
    proxy.refuseTunnels(403);
    const refused = await listQueries(tlsUrl, proxyFetch(() => proxy.url).fetch);
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error.message).toBe(
        `The connection to ${tlsUrl} failed: the proxy at ${new URL(proxy.url).host} refused to connect to the service (it answered HTTP 403).`,
      );
  });

  it('is what core uses for added accounts, while Local goes straight to the embedded service', async () => {
    const proxy = await loopbackProxy();
    const core = await harness.startCore({
      fetch: proxyFetch(() => proxy.url).fetch,
      keyVault: new KeyVault(memoryKeychain()),
      dataDir: mkdtempSync(join(tmpdir(), 'querydesk-core-proxy-')),
    });
    const call = caller(core);
    const added = await call('accounts:add', { label: 'Through the proxy', baseUrl: harness.baseUrl, apiKey: harness.demoApiKey ?? '' });
    expect(added.ok).toBe(true);
    const afterAdd = proxy.log.length;
    expect(afterAdd).toBeGreaterThan(0);
    if (!added.ok) return;
    // one read of a query each: the added account's through the proxy, Local's not
    const created = await call('queries:create', { accountId: 'local', name: 'Read twice', sql: 'SELECT 1' });
    if (!created.ok) throw new Error(created.error.message);
    expect(proxy.log.length).toBe(afterAdd);
    expect((await call('queries:get', { accountId: added.data.id, queryId: created.data.id })).ok).toBe(true);
    expect(proxy.log.length).toBe(afterAdd + 1);
    expect((await call('queries:get', { accountId: 'local', queryId: created.data.id })).ok).toBe(true);
    expect(proxy.log.length).toBe(afterAdd + 1);
  });
});
