import { describe, expect, it } from 'vitest';
import {
  expiryWords,
  freshnessLine,
  isExpired,
  maxAgeWords,
  pinnedWords,
  ranWords,
  reuseLabel,
  shortSpan,
} from '../../../../renderer/src/freshness/freshness-words.ts';

// How old a result is and when the service expires it, in words (issue 36).

const now = Date.parse('2026-11-27T12:00:00Z');
const before = (ms: number) => new Date(now - ms).toISOString();
const after = (ms: number) => new Date(now + ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('freshness words', () => {
  it('says a span short, rounded down', () => {
    expect(shortSpan(59_999)).toBe('under a minute');
    expect(shortSpan(12 * MIN + 59_000)).toBe('12 min');
    expect(shortSpan(3 * HOUR + 59 * MIN)).toBe('3 h');
    expect(shortSpan(DAY)).toBe('1 day');
    expect(shortSpan(5 * DAY + HOUR)).toBe('5 days');
    expect(shortSpan(-5)).toBe('under a minute');
  });

  it("says how long ago a result ran, and a service's 90 days as the days left", () => {
    expect(ranWords(before(20_000), now)).toBe('ran under a minute ago');
    expect(ranWords(before(3 * HOUR + 5 * MIN), now)).toBe('ran 3 h ago');
    // Dune: expires_at is about execution_ended_at + 90 days
    const ended = before(3 * DAY);
    const expires = new Date(Date.parse(ended) + 90 * DAY).toISOString();
    expect(freshnessLine(ended, expires, now)).toBe('ran 3 days ago · expires in 87 days');
    expect(freshnessLine(before(3 * HOUR), after(87 * DAY - 3 * HOUR), now)).toBe('ran 3 h ago · expires in 87 days');
  });

  it('rounds the minutes and hours left up, the days to the nearest, and says an expired result is expired', () => {
    expect(expiryWords(after(30 * 1000), now)).toBe('expires in 1 min');
    expect(expiryWords(after(5 * HOUR - MIN), now)).toBe('expires in 5 h');
    expect(expiryWords(after(DAY + 13 * HOUR), now)).toBe('expires in 2 days');
    expect(expiryWords(after(DAY + 1), now)).toBe('expires in 1 day');
    // a clock a tick behind still says the service's 90 days
    expect(expiryWords(after(90 * DAY + 30_000), now)).toBe('expires in 90 days');
    expect(expiryWords(before(1), now)).toBe('expired');
    expect(expiryWords(new Date(now).toISOString(), now)).toBe('expired');
    expect(freshnessLine(before(91 * DAY), before(DAY), now)).toBe('ran 91 days ago · expired');
    expect(isExpired(before(1), now)).toBe(true);
    expect(isExpired(after(1), now)).toBe(false);
    expect(isExpired(null, now)).toBe(false);
  });

  it('leaves out what the service did not say, and text that is no time', () => {
    expect(freshnessLine(null, after(DAY * 10), now)).toBe('expires in 10 days');
    expect(freshnessLine(before(2 * MIN), null, now)).toBe('ran 2 min ago');
    expect(freshnessLine(null, undefined, now)).toBeNull();
    expect(freshnessLine('yesterday', 'soon', now)).toBeNull();
  });

  it('names the Run button that uses the latest result, pins and max ages', () => {
    expect(reuseLabel(12 * MIN + 30_000)).toBe('Use latest, 12 min old');
    expect(reuseLabel(10_000)).toBe('Use latest, under a minute old');
    expect(pinnedWords(null)).toBe('Pinned — kept until unpinned');
    expect(pinnedWords('2027-02-25T12:00:00Z')).toMatch(/^Pinned — kept until .*2027/);
    expect(maxAgeWords(null)).toBe('none');
    expect(maxAgeWords(15)).toBe('15 min');
    expect(maxAgeWords(6 * 60)).toBe('6 h');
    expect(maxAgeWords(7 * 24 * 60)).toBe('7 days');
  });
});
