import { describe, expect, it } from 'vitest';
import { fuzzService } from '../../../bench/probes/fuzz-run.ts';

// A small, fixed set of the fuzzer's seeds on every test run; `npm run fuzz:service` runs long.

describe('the service under random requests', () => {
  it('answers every one of 1,500 without a 5xx, a crash or a leak', async () => {
    // bounded in count, not in time (the time bound is the run's safety net on a loaded machine)
    // the sandbox's statements run in sql-writes.test.ts
    const report = await fuzzService({
      requests: 1500,
      seed: 20261124,
      maxSeconds: 240,
      concurrency: 4,
      maxGrowthBytes: 512 * 1024 * 1024,
      maxLateGrowthBytes: 256 * 1024 * 1024,
      maxPeakGrowthBytes: 512 * 1024 * 1024,
      sandboxProbe: false,
    });
    expect(report.problems, JSON.stringify(report.problems.slice(0, 3), null, 1)).toEqual([]);
    expect(report.crashed).toBe(false);
    expect(report.sent).toBe(1500);
    // and the raw requests (fuzz-raw.ts) before them, each answered as it must be
    expect(report.raw.filter((outcome) => !outcome.ok)).toEqual([]);
    expect(report.raw.length).toBeGreaterThan(20);
    // most of them reached the handlers rather than being turned away at the door
    expect((report.statuses['200'] ?? 0) + (report.statuses['400'] ?? 0)).toBeGreaterThan(report.sent / 3);
  }, 300_000);
});
