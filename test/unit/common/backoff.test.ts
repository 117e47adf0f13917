import { describe, expect, it } from 'vitest';
import { doubled, jittered } from '../../../main/common/backoff.ts';

describe('the backoff', () => {
  it('doubles the first wait per failure, up to the ceiling', () => {
    expect([0, 1, 2, 3, 10].map((n) => doubled(500, n, 30_000))).toEqual([500, 1000, 2000, 4000, 30_000]);
  });

  it('takes no doubling below one as none', () => {
    expect(doubled(2000, -1, 60_000)).toBe(2000);
  });

  it('never gives more than the ceiling, even as the first wait', () => {
    expect(doubled(5000, 0, 3000)).toBe(3000);
  });

  it('spreads a wait within its jitter, in whole milliseconds', () => {
    const fifth = { from: 0.8, spread: 0.4 };
    expect(jittered(2000, fifth, () => 0)).toBe(1600);
    expect(jittered(2000, fifth, () => 0.5)).toBe(2000);
    expect(jittered(2000, fifth, () => 0.999999)).toBe(2400);
    expect(jittered(1001, { from: 0.5, spread: 0.5 }, () => 0)).toBe(501);
  });

  it('stays within its jitter with the default random source', () => {
    for (let i = 0; i < 100; i += 1) {
      const wait = jittered(1000, { from: 0.5, spread: 0.5 });
      expect(wait).toBeGreaterThanOrEqual(500);
      expect(wait).toBeLessThanOrEqual(1000);
    }
  });
});
