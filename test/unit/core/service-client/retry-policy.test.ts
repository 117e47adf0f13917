import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryableStatus, retryAfterMs } from '../../../../main/core/service-client/retry-policy.ts';

const policy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

describe('the retry policy', () => {
  it('doubles the backoff per attempt, jittered between half and all of it, up to the cap', () => {
    expect([1, 2, 3].map((attempt) => backoffDelay(policy, attempt, () => 1))).toEqual([500, 1000, 2000]);
    expect(backoffDelay(policy, 3, () => 0)).toBe(1000);
    expect(backoffDelay(policy, 20, () => 1)).toBe(30_000);
  });

  it('reads Retry-After as seconds or as an HTTP date, and ignores junk', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 08:00:00 GMT'))).toBe(0);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });

  it('retries 429 for any call, 502/503/504 only for idempotent ones, and nothing else (a 500 neither)', () => {
    expect(isRetryableStatus(429, false)).toBe(true);
    expect([502, 503, 504].map((s) => [isRetryableStatus(s, true), isRetryableStatus(s, false)])).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
    expect([400, 401, 403, 404, 409, 500, 501].some((s) => isRetryableStatus(s, true))).toBe(false);
  });
});
