import { describe, expect, it } from 'vitest';
import { ACCOUNT_POLL_RATE, PollBudget } from '../../../../main/core/executions/poll-budget.ts';
import { DEFAULT_POLL_BOUNDS, paceOf, pollDelayWithin } from '../../../../main/core/executions/poll-pace.ts';

/** When each poll of `runs` runs of one account, all started at 0, is sent within `untilMs`. */
function pollTimes(accountId: string, runs: number, untilMs: number): number[] {
  const pace = paceOf(accountId, DEFAULT_POLL_BOUNDS);
  const budget = pace.rate === null ? null : new PollBudget(pace.rate);
  const next = Array.from({ length: runs }, () => 0);
  const sent: number[] = [];
  const schedule = (run: number, now: number) => {
    const wantedAt = now + pace.delay(now, 0);
    next[run] = budget === null ? wantedAt : budget.reserve(wantedAt);
  };
  next.forEach((_, run) => schedule(run, 0));
  for (;;) {
    const at = Math.min(...next);
    if (at > untilMs) return sent;
    const run = next.indexOf(at);
    sent.push(at);
    schedule(run, at);
  }
}

const inWindow = (times: number[], fromMs: number) => times.filter((t) => t >= fromMs && t < fromMs + 60_000).length;

describe('the pace of polls', () => {
  it('polls a young run of a service with a rate limit every second at first, as the SDKs do', () => {
    expect(pollTimes('dune', 1, 10_000)).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000]);
  });

  it("keeps a single run's first minute within the Free plan's 40 reads, with room for the results", () => {
    const times = pollTimes('dune', 1, 10 * 60_000);
    expect(inWindow(times, 0)).toBeLessThanOrEqual(ACCOUNT_POLL_RATE.burst + ACCOUNT_POLL_RATE.perMinute);
    for (let from = 0; from < 9 * 60_000; from += 5000) {
      expect(inWindow(times, from)).toBeLessThanOrEqual(ACCOUNT_POLL_RATE.burst + ACCOUNT_POLL_RATE.perMinute);
    }
    expect(inWindow(times, 5 * 60_000)).toBeLessThanOrEqual(ACCOUNT_POLL_RATE.perMinute + 1);
  });

  it('shares the rate among the runs of an account: three cost what one does', () => {
    const one = pollTimes('dune', 1, 5 * 60_000);
    const three = pollTimes('dune', 3, 5 * 60_000);
    expect(three.length).toBeLessThanOrEqual(one.length + 1);
    for (let from = 60_000; from < 4 * 60_000; from += 5000) {
      expect(inWindow(three, from)).toBeLessThanOrEqual(ACCOUNT_POLL_RATE.perMinute + 1);
    }
  });

  it('polls the Local account, whose embedded service has no rate limit, from a quarter second', () => {
    const local = paceOf('local', DEFAULT_POLL_BOUNDS);
    expect(local.rate).toBeNull();
    expect(local.delay(0, 0)).toBe(250);
    expect(local.delay(10 * 60_000, 0)).toBe(DEFAULT_POLL_BOUNDS.maxMs);
  });

  it('slows for long runs and backs off after failures', () => {
    expect(pollDelayWithin(DEFAULT_POLL_BOUNDS, 0, 0)).toBe(1000);
    expect(pollDelayWithin(DEFAULT_POLL_BOUNDS, 20_000, 0)).toBe(2000);
    expect(pollDelayWithin(DEFAULT_POLL_BOUNDS, 10 * 60_000, 0)).toBe(3000);
    expect(pollDelayWithin(DEFAULT_POLL_BOUNDS, 0, 3)).toBe(8000);
    expect(pollDelayWithin(DEFAULT_POLL_BOUNDS, 10 * 60_000, 10)).toBe(30_000);
  });
});

describe('an account poll budget', () => {
  it('lets a burst through at once, then one poll per interval, and a quiet spell restores the burst', () => {
    const budget = new PollBudget({ perMinute: 15, burst: 3 });
    expect([0, 0, 0, 0, 0].map((t) => budget.reserve(t))).toEqual([0, 0, 0, 4000, 8000]);
    expect(budget.reserve(9000)).toBe(12_000);
    expect([60_000, 60_000, 60_000, 60_000].map((t) => budget.reserve(t))).toEqual([60_000, 60_000, 60_000, 64_000]);
  });
});
