import type { ServiceAccount, Plan } from '../accounts/account-store.ts';
import { HttpError } from './http-error.ts';
import { segmentsOf } from './router.ts';

// The real service's requests-per-minute limits (notes §10): writes (create, update, archive,
// execute, uploads) and reads (everything else, cancel included) are counted apart. Premium is
// given the enterprise figures.
const LIMITS: Record<Plan, { write: number; read: number }> = {
  free: { write: 15, read: 40 },
  plus: { write: 70, read: 200 },
  premium: { write: 350, read: 1000 },
};

const WINDOW_MILLIS = 60_000;

export type Bucket = 'write' | 'read';

/** The bucket of a request by the route it matched (a path reads the same: segments as the router takes them). */
export function bucketOf(method: string, route: string): Bucket {
  return method === 'GET' || segmentsOf(route).at(-1) === 'cancel' ? 'read' : 'write';
}

/** A sliding one-minute window of request times per account and bucket. */
export class RateLimiter {
  #seen = new Map<string, number[]>();
  #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  admit(account: ServiceAccount, bucket: Bucket): void {
    const now = this.#now();
    const key = `${account.id}:${bucket}`;
    const recent = (this.#seen.get(key) ?? []).filter((t) => t > now - WINDOW_MILLIS);
    const limit = LIMITS[account.plan][bucket];
    if (recent.length >= limit) {
      this.#seen.set(key, recent);
      const retryAfter = Math.max(1, Math.ceil((recent[0]! + WINDOW_MILLIS - now) / 1000));
      // the wait is said once, in Retry-After: a client that will not wait that long says it (the app's does)
      throw new HttpError(429, `rate limit exceeded: the ${account.plan} plan allows ${limit} ${bucket} requests per minute`, {
        'retry-after': String(retryAfter),
      });
    }
    recent.push(now);
    this.#seen.set(key, recent);
  }
}
