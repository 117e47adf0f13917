// Every response that crosses the contract is a value, never a thrown error.

export const ERROR_CODES = [
  'invalid_request', // the payload failed its schema; `details` lists the fields
  'unknown_channel',
  'untrusted_sender',
  'not_found',
  'bad_key', // the service refused the API key (401)
  'forbidden', // plan or context does not allow it (402/403)
  'bad_request', // the service refused the request (400/409/413); message is the service's own
  'rate_limited',
  'server_error',
  'unreachable', // network error: the service could not be reached
  'timeout',
  'cancelled',
  'keychain_unavailable', // no OS keychain reachable: the UI offers a session-only key
  'partial_result', // the result was truncated by the service: read it again with allowPartial if the user agrees
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ContractError {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/**
 * The data asked for, or why not. Every answer across the contract is one (with a ContractError),
 * and so is every step in core that can fail (with its own kind of error: a ServiceError of the
 * service client, a refusal of the cache).
 */
export type Result<T, E = ContractError> = { ok: true; data: T } | Failure<E>;

export type Failure<E = ContractError> = { ok: false; error: E };

export function ok<T>(data: T): { ok: true; data: T } {
  return { ok: true, data };
}

export function fail(code: ErrorCode, message: string, details?: unknown): Failure {
  return details === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, details } };
}
