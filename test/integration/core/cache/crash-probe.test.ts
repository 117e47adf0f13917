import { describe, expect, it } from 'vitest';
import { crashCache } from '../../../../bench/probes/crash-cache.ts';

// One round of the cache's crash probe on every test run; `npm run crash:cache -- --rounds 10` runs long.

describe('the result cache killed mid-download and opened again', () => {
  it('goes on from the rows on disk, ends with the result exact, and gives the cleared entry its space back', async () => {
    const report = await crashCache({ rounds: 1, seed: 7, rows: 1_000_000 });
    expect(report.rounds).toHaveLength(1);
    expect(report.rounds[0]!.resumedFrom).toBeGreaterThan(0);
    expect(report.rounds[0]!.exact).toBe(true);
    // the file holds only the empty manifest then, with a block or so to spare
    expect(report.finalBytes).toBeLessThanOrEqual(report.finalUsedBytes + 2 * 256 * 1024 + 12 * 1024);
  }, 240_000);
});
