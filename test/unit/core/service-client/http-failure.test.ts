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

describe('a wait the transport would not make, in the message', () => {
  const said = (words: string, seconds: number) =>
    httpFailure(refused(429, { 'Retry-After': String(seconds) }, JSON.stringify({ error: words })), seconds * 1000).error.message;

  it('is added to words of the service that give no wait', () => {
    expect(said('Too many requests', 3600)).toBe('Too many requests (try again in 3600 s)');
    expect(said('the free plan allows 40 read requests per minute', 60)).toBe(
      'the free plan allows 40 read requests per minute (try again in 60 s)',
    );
  });

  it('is not added when the service already gave that wait, in seconds or minutes', () => {
    const words = 'rate limit exceeded: the free plan allows 40 read requests per minute; retry in 60 s';
    expect(said(words, 60)).toBe(words);
    expect(said('Slow down, try again in 60 seconds.', 60)).toBe('Slow down, try again in 60 seconds.');
    expect(said('retry in 2 minutes', 120)).toBe('retry in 2 minutes');
  });

  it('is added when the service gave another wait, or the number was not a wait', () => {
    expect(said('retry in 30 s', 60)).toBe('retry in 30 s (try again in 60 s)');
    expect(said('retry in 160 s', 60)).toBe('retry in 160 s (try again in 60 s)');
    expect(said('60 searches per minute at most', 60)).toBe('60 searches per minute at most (try again in 60 s)');
  });

  it('is always added to our own words for an answer without the service’s', () => {
    expect(httpFailure(refused(429, { 'Retry-After': '60' }, ''), 60_000).error.message).toBe(
      'The service answered with HTTP 429 without saying why (try again in 60 s).',
    );
  });
});
