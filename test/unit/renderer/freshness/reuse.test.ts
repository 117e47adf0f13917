import { describe, expect, it } from 'vitest';
import type { ExecutionUpdate } from '../../../../main/contract/index.ts';
import { reuseDecision, type ReuseInput } from '../../../../renderer/src/freshness/reuse.ts';

// Whether Run uses the service's latest result instead of starting an execution (issue 36).

const now = Date.parse('2026-11-27T12:00:00Z');
const MIN = 60_000;

function latest(endedMinutesAgo: number, patch: Partial<ExecutionUpdate> = {}): ExecutionUpdate {
  const endedAt = new Date(now - endedMinutesAgo * MIN).toISOString();
  return {
    accountId: 'local',
    executionId: '01LATEST',
    queryId: 7,
    state: 'QUERY_STATE_COMPLETED',
    isFinished: true,
    queuePosition: null,
    submittedAt: endedAt,
    startedAt: endedAt,
    endedAt,
    expiresAt: new Date(Date.parse(endedAt) + 90 * 24 * 60 * MIN).toISOString(),
    elapsedMs: 0,
    error: null,
    result: { columnNames: ['a'], columnTypes: ['integer'], totalRowCount: 1, totalBytes: 8, executionTimeMillis: 5 } as never,
    ...patch,
  };
}

const values = { chain: 'base', min_usd: '1000' };
const input = (patch: Partial<ReuseInput>): ReuseInput => ({
  maxAgeMinutes: 60,
  latest: latest(12),
  latestFor: values,
  parameters: values,
  now,
  ...patch,
});

describe('the reuse decision', () => {
  it('uses a latest result of the same values younger than the max age, and says how old', () => {
    expect(reuseDecision(input({}))).toEqual({ reuse: true, execution: latest(12), ageMs: 12 * MIN });
    // the values in another key order are the same values
    expect(reuseDecision(input({ parameters: { min_usd: '1000', chain: 'base' } })).reuse).toBe(true);
  });

  it('runs without a max age, or when the latest is as old as it or older', () => {
    expect(reuseDecision(input({ maxAgeMinutes: null }))).toEqual({ reuse: false });
    expect(reuseDecision(input({ latest: latest(60) }))).toEqual({ reuse: false });
    expect(reuseDecision(input({ latest: latest(61) }))).toEqual({ reuse: false });
    expect(reuseDecision(input({ latest: null }))).toEqual({ reuse: false });
  });

  it('never uses a result of other parameter values', () => {
    expect(reuseDecision(input({ parameters: { chain: 'ethereum', min_usd: '1000' } }))).toEqual({ reuse: false });
    expect(reuseDecision(input({ latestFor: {} }))).toEqual({ reuse: false });
  });

  it('never uses a partial, failed, expired or undated result', () => {
    expect(reuseDecision(input({ latest: latest(5, { state: 'QUERY_STATE_COMPLETED_PARTIAL' }) })).reuse).toBe(false);
    expect(reuseDecision(input({ latest: latest(5, { state: 'QUERY_STATE_FAILED', result: null }) })).reuse).toBe(false);
    expect(reuseDecision(input({ latest: latest(5, { expiresAt: new Date(now - 1).toISOString() }) })).reuse).toBe(false);
    expect(reuseDecision(input({ latest: latest(5, { endedAt: null }) })).reuse).toBe(false);
  });
});
