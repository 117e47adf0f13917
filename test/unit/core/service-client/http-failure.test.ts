import { describe, expect, it } from 'vitest';
import { httpFailure } from '../../../../main/core/service-client/http-failure.ts';

const refused = (status: number, headers: Record<string, string>, text = '{"error":"rate limit exceeded"}') => ({
  status,
  headers: new Headers(headers),
  text,
});

describe('a refused response as a failure value', () => {
  it('carries the wait Retry-After asked for, in seconds or as an HTTP date', () => {
    expect(httpFailure(refused(429, { 'Retry-After': '60' }), null).error).toEqual({
      kind: 'rate_limited',
      status: 429,
      message: 'rate limit exceeded',
      retryAfterMs: 60_000,
    });
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(httpFailure(refused(503, { 'retry-after': 'Wed, 21 Oct 2026 07:28:10 GMT' }), null, now).error.retryAfterMs).toBe(10_000);
  });

  it('has no wait when the service asked for none, or for one that cannot be read', () => {
    expect(httpFailure(refused(429, {}), null).error).not.toHaveProperty('retryAfterMs');
    expect(httpFailure(refused(429, { 'Retry-After': 'soon' }), null).error).not.toHaveProperty('retryAfterMs');
  });
});
