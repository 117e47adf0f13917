import { describe, expect, it } from 'vitest';
import { loadService, starveService } from '../../../../bench/probes/starve-run.ts';

// `npm run service` (as the hosts run it) with more long executions than libuv's default pool has
// threads; `npm run starve:service` runs longer and prints the latencies.

describe('long executions of other contexts', () => {
  it("leave a context's reads and its cancel answered while they run, and all end when cancelled", async () => {
    // four may run at once: more than libuv's default pool of 4 could give while requests still
    // find a thread, so the host must have sized the pool before it started
    const report = await starveService({ long: 6, rounds: 2, readTimeoutMs: 20_000, extraArgs: ['--running-executions', '4'] });
    expect(report.busy.unanswered).toBe(0);
    expect(report.cancelMillis).not.toBeNull();
    expect(report.cancelledState).toBe('QUERY_STATE_CANCELLED');
    // the reads came back while the long executions still ran, the rest of them waiting their turn:
    // four, and one more of a context running nothing while the others held every slot
    expect(report.longBefore).toEqual([...Array(5).fill('QUERY_STATE_EXECUTING'), 'QUERY_STATE_PENDING (queue position 1)']);
    expect(report.longAfter).toEqual(report.longBefore);
    expect(report.longEnded).toEqual(Array(6).fill('QUERY_STATE_CANCELLED'));
  }, 120_000);
});

describe('memory-heavy executions of several contexts at once', () => {
  it("stay within their plan's memory and spill, and fail past them saying so", async () => {
    const MB = 1024 * 1024;
    const contexts = 3;
    const report = await loadService({ contexts, plan: 'free', extraArgs: ['--execution-memory', '64MB', '--execution-spill', '16MB'] });
    for (const outcome of report.outcomes)
      expect(outcome).toMatch(/^QUERY_STATE_FAILED: the execution went past the free plan's (spill|memory) budget/);
    expect(report.peakSpillBytes).toBeLessThanOrEqual(contexts * 16 * MB);
    // far below what the same sorts took with 2 GB a context and no spill limit
    expect(report.peakRssBytes).toBeLessThan(1024 * MB);
  }, 120_000);
});
