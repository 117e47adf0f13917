import type { Dispatcher } from 'undici';
import { withExplainedFailures } from '../core/network/explained-fetch-failures.ts';
import type { Fetch } from '../core/service-client/index.ts';

// The browser host reaches services the way command-line tools do: through the proxy set in
// Settings when there is one, else through HTTPS_PROXY / HTTP_PROXY minus NO_PROXY. Node's own
// fetch cannot take a per-request proxy (its undici is not exposed), hence the pinned `undici`.
// Plain-http services go through the proxy as absolute-URI requests, https ones through CONNECT.
// undici is loaded at the first request to such a service: most starts never make one, and it
// is a large part of the modules a start would otherwise load.

export interface ProxyFetch {
  fetch: Fetch;
  close(): Promise<void>;
}

export function createProxyFetch(proxySetting: () => string, env: NodeJS.ProcessEnv = process.env): ProxyFetch {
  let current: { setting: string; dispatcher: Dispatcher } | null = null;
  const retired: Dispatcher[] = [];

  let undici: Promise<typeof import('undici')> | null = null;

  async function dispatcher(): Promise<Dispatcher> {
    const { Agent, EnvHttpProxyAgent, ProxyAgent } = await (undici ??= import('undici'));
    const setting = proxySetting();
    if (current?.setting === setting) return current.dispatcher;
    // requests still under way keep their dispatcher until it is closed at the end
    if (current !== null) retired.push(current.dispatcher);
    const next =
      setting !== ''
        ? new ProxyAgent({ uri: setting, proxyTunnel: false })
        : hasEnvProxy(env)
          ? new EnvHttpProxyAgent({
              // given explicitly, so that only `env` counts (undici falls back to process.env on undefined)
              httpProxy: envValue(env, 'http_proxy') ?? '',
              httpsProxy: envValue(env, 'https_proxy') ?? '',
              noProxy: envValue(env, 'no_proxy') ?? '',
              proxyTunnel: false,
            })
          : new Agent();
    current = { setting, dispatcher: next };
    return next;
  }

  function proxyFor(url: URL): URL | null {
    const setting = proxySetting();
    if (setting !== '') return new URL(setting);
    if (bypassed(url, envValue(env, 'no_proxy') ?? '')) return null;
    const named = url.protocol === 'https:' ? (envValue(env, 'https_proxy') ?? envValue(env, 'http_proxy')) : envValue(env, 'http_proxy');
    return named === undefined ? null : new URL(named);
  }

  const send: Fetch = async (url, init) => {
    const chosen = await dispatcher();
    const { fetch: undiciFetch } = await undici!;
    return undiciFetch(url, { ...(init as object), dispatcher: chosen }) as unknown as Promise<Response>;
  };
  return {
    fetch: withExplainedFailures(send, proxyFor),
    async close() {
      const all = [...retired.splice(0), ...(current === null ? [] : [current.dispatcher])];
      current = null;
      await Promise.all(all.map((one) => one.close()));
    },
  };
}

function envValue(env: NodeJS.ProcessEnv, lowerName: string): string | undefined {
  const value = env[lowerName] ?? env[lowerName.toUpperCase()];
  return value === undefined || value === '' ? undefined : value;
}

function hasEnvProxy(env: NodeJS.ProcessEnv): boolean {
  return envValue(env, 'http_proxy') !== undefined || envValue(env, 'https_proxy') !== undefined;
}

/** NO_PROXY as curl reads it, for naming the proxy in an error: `*`, host names and their subdomains, host:port. */
function bypassed(url: URL, noProxy: string): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return noProxy
    .split(/[,\s]+/)
    .filter((entry) => entry !== '')
    .some((entry) => {
      if (entry === '*') return true;
      const [name = '', port] = entry.replace(/^\*?\./, '.').split(/:(?=\d+$)/);
      if (port !== undefined && port !== (url.port || (url.protocol === 'https:' ? '443' : '80'))) return false;
      return name.startsWith('.') ? host.endsWith(name) || host === name.slice(1) : host === name || host.endsWith(`.${name}`);
    });
}
