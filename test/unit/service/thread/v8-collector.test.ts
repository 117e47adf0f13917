import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../../main/service/thread/v8-collector.ts';

const MB = 1024 * 1024;

describe('V8’s collector, for a thread', () => {
  it('frees garbage of the young generation in a minor collection', () => {
    // garbage made after a first collection, and small enough to stay in the young generation
    collectGarbage({ type: 'minor', execution: 'sync' });
    let garbage: unknown[] | null = [];
    for (let i = 0; i < (2 * MB) / 64; i++) garbage.push({ i });
    const before = getHeapStatistics().used_heap_size;
    expect(garbage.length).toBeGreaterThan(0);
    garbage = null;
    collectGarbage({ type: 'minor', execution: 'sync' });
    expect(getHeapStatistics().used_heap_size).toBeLessThan(before - MB);
  });
});
