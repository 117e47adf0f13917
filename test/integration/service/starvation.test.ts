import { describe, expect, it } from 'vitest';
import { starveService } from '../../../bench/probes/starve-run.ts';

// `npm run service` (as the hosts run it) with more long executions than libuv's default pool has
// threads; `npm run starve:service` runs longer and prints the latencies.

describe('long executions of other contexts', () => {
  it("leave a context's reads and its cancel answered while they run, and all end when cancelled", async () => {
    const report = await starveService({ long: 4, rounds: 2, readTimeoutMs: 20_000 });
    expect(report.busy.unanswered).toBe(0);
    expect(report.cancelMillis).not.toBeNull();
    expect(report.cancelledState).toBe('QUERY_STATE_CANCELLED');
    // the reads came back while the long executions still ran, the rest of them waiting their turn
    const running = report.longBefore.filter((state) => state === 'QUERY_STATE_EXECUTING');
    expect(running.length).toBeGreaterThan(0);
    expect(report.longAfter).toEqual(report.longBefore);
    for (const state of report.longBefore) expect(state).toMatch(/^QUERY_STATE_EXECUTING$|^QUERY_STATE_PENDING \(queue position \d\)$/);
    expect(report.longEnded).toEqual(Array(4).fill('QUERY_STATE_CANCELLED'));
  }, 120_000);
});
