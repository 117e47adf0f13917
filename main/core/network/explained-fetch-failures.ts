import type { Fetch, FetchedResponse } from '../service-client/index.ts';

// The network stacks (Node's undici, Chromium's under Electron's net.fetch) name a failure with a
// code an analyst cannot act on. This wraps a host's fetch so a certificate or proxy problem is
// said in words, with the code kept for a bug report. Certificates are always verified: the
// advice is to trust the certificate in the system, never to skip the check.

const TRUST_ADVICE =
  "Add the certificate, or the authority that issued it, to this computer's trusted certificates; Querydesk does not skip certificate checks";

const CERTIFICATE_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed and not trusted by this computer',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate was issued by a self-signed authority this computer does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate was issued by an authority this computer does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate was issued by an authority this computer does not know',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet (check the computer clock)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for a different host name',
  'net::ERR_CERT_AUTHORITY_INVALID': 'its certificate was issued by an authority this computer does not trust',
  'net::ERR_CERT_DATE_INVALID': 'its certificate has expired or is not valid yet',
  'net::ERR_CERT_COMMON_NAME_INVALID': 'its certificate is for a different host name',
};

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

interface Cause {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
}

/**
 * `proxyFor(url)`: the proxy a request to `url` goes through, or null when it goes direct (or the
 * host cannot tell, as under the system's settings).
 */
export function withExplainedFailures(send: Fetch, proxyFor: (url: URL) => URL | null): Fetch {
  return async (url, init) => {
    let response: FetchedResponse;
    try {
      response = await send(url, init);
    } catch (error) {
      const reason = explain(error, proxyFor(url));
      throw reason === null ? error : new TypeError('fetch failed', { cause: { message: reason } });
    }
    const proxy = proxyFor(url);
    if (response.status === 407 && proxy !== null) {
      // a proxy's refusal is short: read, so that the connection is free again
      await response.text();
      throw new TypeError('fetch failed', {
        cause: {
          message: `the proxy at ${proxy.host} asks for a user name and password (HTTP 407); put them in the proxy address, as http://user:password@host:port`,
        },
      });
    }
    return response;
  };
}

function explain(error: unknown, proxy: URL | null): string | null {
  const chain = causesOf(error);
  // undici wraps the socket's error once or twice; Electron names its net error in the message
  const cause = chain.find((one) => typeof one.code === 'string') ?? chain[0] ?? {};
  const code = cause.code ?? chain.map((one) => netErrorIn(one.message)).find((found) => found !== undefined);
  if (code === undefined) return null;
  const certificate = CERTIFICATE_PROBLEMS[code];
  if (certificate !== undefined) return `${certificate} (${code}). ${TRUST_ADVICE}`;
  if (code === 'net::ERR_PROXY_CONNECTION_FAILED')
    return `the proxy${proxy === null ? '' : ` at ${proxy.host}`} could not be reached (${code})`;
  if (code === 'net::ERR_TUNNEL_CONNECTION_FAILED')
    return `the proxy${proxy === null ? '' : ` at ${proxy.host}`} refused to connect to the service (${code})`;
  if (proxy === null) return null;
  const tunnelStatus = chain.map((one) => /Proxy response \((\d+)\)/.exec(one.message ?? '')?.[1]).find((found) => found !== undefined);
  if (tunnelStatus !== undefined) return `the proxy at ${proxy.host} refused to connect to the service (it answered HTTP ${tunnelStatus})`;
  if (UNREACHABLE_CODES.has(code) && isProxyEndpoint(cause, proxy)) return `the proxy at ${proxy.host} could not be reached (${code})`;
  return null;
}

/** The error and its causes, outermost first. */
function causesOf(error: unknown): Cause[] {
  const chain: Cause[] = [];
  for (
    let current = error;
    typeof current === 'object' && current !== null && chain.length < 5;
    current = (current as { cause?: unknown }).cause
  ) {
    chain.push(current as Cause);
  }
  return chain;
}

function netErrorIn(message: string | undefined): string | undefined {
  return /net::ERR_[A-Z_]+/.exec(message ?? '')?.[0];
}

/** A refused connection names the address it tried; when that is the proxy's, the proxy is what failed. */
function isProxyEndpoint(cause: Cause, proxy: URL): boolean {
  const port = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  if (cause.port !== undefined) return cause.port === port;
  return (cause.message ?? '').includes(`:${port}`);
}
