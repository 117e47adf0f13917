import type { Failure, Result } from '../../contract/index.ts';

// Errors of the service client, as values. `kind` is what the app acts on; `message` is the
// service's own `error` text whenever it sent one, so the UI can show it as the service words it.

export type ServiceErrorKind =
  'bad_key' | 'forbidden' | 'not_found' | 'bad_request' | 'rate_limited' | 'server_error' | 'unreachable' | 'timeout' | 'cancelled';

export interface ServiceError {
  kind: ServiceErrorKind;
  /** HTTP status when the service answered; null when it did not (network, timeout, cancel). */
  status: number | null;
  message: string;
  /**
   * The wait the service asked for before the request is sent again (Retry-After, as seconds or a
   * date), when it gave one: the transport's own retries end before long waits, so a caller that
   * tries later must know it.
   */
  retryAfterMs?: number;
}

export type ClientResult<T> = Result<T, ServiceError>;

export function failure(kind: ServiceErrorKind, message: string, status: number | null = null): Failure<ServiceError> {
  return { ok: false, error: { kind, status, message } };
}

export function kindForStatus(status: number): ServiceErrorKind {
  if (status === 401) return 'bad_key';
  // 402 is the service's "would exceed your limits / plan" answer.
  if (status === 402 || status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

/** The service was not heard from: the network failed or it did not answer in time. */
export function isNetworkFailure(error: ServiceError): boolean {
  return error.kind === 'unreachable' || error.kind === 'timeout';
}
