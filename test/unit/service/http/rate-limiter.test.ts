import { describe, expect, it } from 'vitest';
import type { ServiceAccount } from '../../../../main/service/accounts/account-store.ts';
import { HttpError } from '../../../../main/service/http/http-error.ts';
import { bucketOf, RateLimiter } from '../../../../main/service/http/rate-limiter.ts';

const free: ServiceAccount = { id: 1, handle: 'bob', kind: 'user', plan: 'free' };

describe('RateLimiter', () => {
  it('admits the plan limit per sliding minute, then refuses with the seconds to wait', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let i = 0; i < 15; i++) {
      now = i * 1000;
      limiter.admit(free, 'write');
    }
    now = 20_000;
    let refusal: unknown;
    try {
      limiter.admit(free, 'write');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HttpError);
    expect((refusal as HttpError).status).toBe(429);
    expect((refusal as HttpError).headers['retry-after']).toBe('40'); // the first request leaves the window at 60 s
    limiter.admit(free, 'read'); // the other bucket is counted apart
    now = 60_001;
    expect(() => limiter.admit(free, 'write')).not.toThrow();
  });

  it('counts GET and cancel as reads, every other change as a write', () => {
    expect(bucketOf('GET', '/api/v1/execution/x/results')).toBe('read');
    expect(bucketOf('POST', '/api/v1/execution/x/cancel')).toBe('read');
    expect(bucketOf('POST', '/api/v1/query/1/execute')).toBe('write');
    expect(bucketOf('PATCH', '/api/v1/query/1')).toBe('write');
    expect(bucketOf('DELETE', '/api/v1/table/a/b')).toBe('write');
  });

  it('reads a path as the router does: a trailing slash names the same cancel', () => {
    expect(bucketOf('POST', '/api/v1/execution/:id/cancel/')).toBe('read');
    expect(bucketOf('POST', '/api/v1/execution/x/cancel//')).toBe('read');
    expect(bucketOf('DELETE', '/api/v1/table/:namespace/:table_name')).toBe('write');
  });
});
