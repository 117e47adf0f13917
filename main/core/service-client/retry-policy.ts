import { doubled, jittered, type Jitter } from '../../common/backoff.ts';

// When a failed request is worth sending again, and how long to wait first. Exponential backoff
// with jitter, so many clients refused together do not come back together; a Retry-After from
// the service wins over the backoff.

export interface RetryPolicy {
  /** Including the first one. 1 turns retries off. */
  maxAttempts: number;
  baseDelayMs: number;
  /** No wait is longer; a Retry-After asking for more ends the retries instead. */
  maxDelayMs: number;
}

const HALF_TO_ALL: Jitter = { from: 0.5, spread: 0.5 };

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * 429 means the service refused the request without acting on it, so even a call that is not
 * idempotent (execute) may be sent again. 502, 503 and 504 (a gateway or a service passing
 * trouble), network errors and timeouts may come after the service acted, so only idempotent calls
 * are retried then. A 500 is not retried, as Dune's official Python client does not: it is a bug
 * of the service, the same request meets it again, and each try spends the plan's requests.
 */
export function isRetryableStatus(status: number, idempotent: boolean): boolean {
  return status === 429 || (idempotent && (status === 502 || status === 503 || status === 504));
}

export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return jittered(doubled(policy.baseDelayMs, attempt - 1, policy.maxDelayMs), HALF_TO_ALL, random);
}

/** Retry-After in milliseconds (delay-seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Resolves after `ms`, or early with false when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
