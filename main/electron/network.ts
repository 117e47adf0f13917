import { net, type Session } from 'electron';
import { withExplainedFailures } from '../core/network/explained-fetch-failures.ts';
import type { Fetch } from '../core/service-client/index.ts';

// In Electron, requests to services go through Chromium's network stack (net.fetch on the default
// session): the system's proxy settings, PAC files and certificate store apply, as they do for a
// browser behind a company proxy or a TLS-inspecting gateway. A proxy in Settings replaces the
// system's for the session.

export function electronFetch(proxySetting: () => string): Fetch {
  const send: Fetch = (url, init) => net.fetch(url.href, { ...init, body: streamable(init.body) });
  return withExplainedFailures(send, () => {
    const proxy = proxySetting();
    return proxy === '' ? null : new URL(proxy);
  });
}

/** Applies the proxy setting to the session; open connections are dropped so none keeps the old route. */
export async function applyProxySetting(session: Session, proxy: string): Promise<void> {
  await session.setProxy(proxy === '' ? { mode: 'system' } : { mode: 'fixed_servers', proxyRules: proxy });
  await session.closeAllConnections();
}

/** Chromium's fetch takes a stream body as a ReadableStream, not the async iterable Node's takes. */
function streamable(body: RequestInit['body']): RequestInit['body'] {
  if (body !== null && typeof body === 'object' && Symbol.asyncIterator in body && !(body instanceof ReadableStream)) {
    return ReadableStream.from(body as AsyncIterable<Uint8Array>);
  }
  return body;
}
