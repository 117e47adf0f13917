import { clause, thrownText } from '../words.ts';

// A request that got no answer, said in words: the network stacks name the failure with a code
// (ECONNREFUSED) an analyst cannot act on. The code stays in parentheses for a bug report.

const CODE_WORDS: Record<string, (origin: string, host: string) => string> = {
  ECONNREFUSED: (origin) => `Nothing accepted the connection to ${origin}: it was refused`,
  ECONNRESET: (origin) => `The connection to ${origin} was reset before the answer came`,
  UND_ERR_SOCKET: (origin) => `The connection to ${origin} was closed before the answer ended`,
  ENOTFOUND: (_origin, host) => `The address ${host} was not found`,
  EAI_AGAIN: (_origin, host) => `The address ${host} could not be looked up (the name server did not answer)`,
  ETIMEDOUT: (origin) => `The connection to ${origin} timed out`,
  UND_ERR_CONNECT_TIMEOUT: (origin) => `The connection to ${origin} timed out`,
  EHOSTUNREACH: (origin) => `No route leads from this computer to ${origin}`,
  ENETUNREACH: (origin) => `This computer is not connected to a network that leads to ${origin}`,
  ECONNABORTED: (origin) => `The connection to ${origin} was broken off`,
  EPIPE: (origin) => `The connection to ${origin} was closed while the request was being sent`,
};

/** Why a request to `url` got no answer, as a whole sentence. */
export function networkFailureText(error: unknown, url: URL): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : null;
  const words = code === null ? undefined : CODE_WORDS[code];
  if (code !== null && words !== undefined) return `${words(url.origin, url.hostname)} (${code}).`;
  if (cause?.message === 'bad port')
    return `Nothing was sent to ${url.origin}: port ${url.port} is kept for other protocols, and requests are never sent to it.`;
  const said = clause(typeof cause?.message === 'string' ? cause.message : thrownText(error));
  const because = code === null ? said : `${said} (${code})`;
  return `The connection to ${url.origin} failed: ${because}.`;
}
