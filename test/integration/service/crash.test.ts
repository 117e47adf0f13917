import { describe, expect, it } from 'vitest';
import { crashService } from '../../../bench/probes/crash-run.ts';

// A few SIGKILLs of each kind on every test run; `npm run crash:service -- --rounds 10` runs long.

describe('the service killed mid-work and started again', () => {
  it('keeps what was committed, reads interrupted work as failed or never done, and leaves no files', async () => {
    const report = await crashService({ rounds: 2, seed: 7, kinds: ['execution', 'upload', 'insert', 'sample'] });
    expect(report.kills).toBe(8);
    expect(report.mismatches).toEqual([]);
    expect(report.leftovers).toEqual([]);
  }, 180_000);
});
