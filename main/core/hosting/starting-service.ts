import { loopbackFetch } from '../network/loopback-fetch.ts';
import type { Fetch } from '../service-client/index.ts';

// The hosts answer the window before their embedded service has started (its modules, its
// DuckDB files, the sweep of what the last run left, the demo seed take most of a start): the
// workspace comes from disk meanwhile. The Local account's requests made in that time wait for the
// service, then go to the port it listens on, which is known only then.

/** The Local account's address until its service listens: its requests never go there (see below). */
export const STARTING_SERVICE_URL = 'http://127.0.0.1';

/**
 * A fetch that waits for the service's address, then sends to it. A service that fails to start
 * fails the request with its error, which the client answers as a service it cannot reach; a
 * request cancelled while it waits ends then.
 */
export function fetchOnceStarted(baseUrl: Promise<string>, send: Fetch = loopbackFetch): Fetch {
  return async (url, init) => {
    const started = new URL(await untilAborted(baseUrl, init.signal ?? undefined));
    const target = new URL(url);
    target.protocol = started.protocol;
    target.host = started.host;
    return send(target, init);
  };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
