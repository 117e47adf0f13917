import { describe, expect, it } from 'vitest';
import { createFetchWindow } from '../../../../main/core/cache/fetch-window.ts';

// Pages in flight: the minimum for a service next door, and as many more as arrive within one
// round trip for one farther away, never past the maximum.

function windowAfter(roundTripMs: number, arrivals: number[]) {
  const window = createFetchWindow({ min: 4, max: 8, roundTripMs });
  for (const at of arrivals) window.arrived(at);
  return window.size();
}

describe('the fetch window', () => {
  it('starts at the minimum, before the rate pages arrive at is known', () => {
    expect(windowAfter(80, [])).toBe(4);
    expect(windowAfter(80, [100])).toBe(4);
    expect(windowAfter(80, [100, 100])).toBe(4);
  });

  it('stays at the minimum when the round trip is next to nothing', () => {
    expect(windowAfter(1, [0, 20, 40, 60])).toBe(4);
  });

  it('adds the pages that arrive in one round trip', () => {
    // one page every 40 ms over an 80 ms round trip: two more
    expect(windowAfter(80, [0, 40, 80, 120])).toBe(6);
    // one every 100 ms: one more
    expect(windowAfter(80, [0, 100, 200])).toBe(5);
  });

  it('follows the rate of the latest pages, and never passes the maximum', () => {
    expect(windowAfter(80, [0, 1000, 2000, 2010, 2020, 2030, 2040, 2050, 2060, 2070, 2080])).toBe(8);
    expect(windowAfter(80, [0, 10, 20, 30, 40, 50, 60, 70, 80, 1080, 2080, 3080, 4080, 5080, 6080, 7080, 8080])).toBe(4);
  });
});
