import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http/http-error.ts';
import type { ServiceAccount, AccountStore } from './account-store.ts';

/** The key from `X-<NAME>-API-KEY` (Node lowercases header names, so any case matches) or `api_key`. */
function apiKeyOf(request: IncomingMessage, url: URL, serviceName: string): string | null {
  const header = request.headers[`x-${serviceName.toLowerCase()}-api-key`];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  return fromHeader || url.searchParams.get('api_key') || null;
}

export async function authenticate(
  accounts: AccountStore,
  request: IncomingMessage,
  url: URL,
  serviceName: string,
): Promise<ServiceAccount> {
  const key = apiKeyOf(request, url, serviceName);
  const account = key ? await accounts.byApiKey(key) : null;
  if (!account) throw new HttpError(401, 'invalid API Key');
  return account;
}
