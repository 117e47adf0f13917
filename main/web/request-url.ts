import type { IncomingMessage } from 'node:http';

/**
 * The request's target as a URL, or null when it is not one (`//[/`, `http://[zz]/`): anyone who
 * can reach the port can send such a target, with or without the token.
 */
export function requestUrl(request: IncomingMessage): URL | null {
  return URL.parse(request.url ?? '/', 'http://host');
}
