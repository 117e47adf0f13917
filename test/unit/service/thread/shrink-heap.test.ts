import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { shrinkHeap, shrinkHeapAtRest } from '../../../../main/service/thread/shrink-heap.ts';

const MB = 1024 * 1024;
const heapBytes = () => getHeapStatistics().total_physical_size;

/** Grows this thread's heap by about `megabytes` of small objects kept until the answer is dropped. */
function grow(megabytes: number): unknown[] {
  const kept: unknown[] = [];
  for (let i = 0; i < (megabytes * MB) / 64; i++) kept.push({ i, text: `row ${i}` });
  return kept;
}

describe('shrinking a thread’s heap', () => {
  it('gives back the room garbage took', () => {
    let garbage: unknown[] | null = grow(64);
    const grown = heapBytes();
    expect(garbage.length).toBeGreaterThan(0);
    garbage = null;
    shrinkHeap();
    expect(heapBytes()).toBeLessThan(grown - 32 * MB);
  });

  it('does so by itself once the thread is quiet, and stops when told', async () => {
    let garbage: unknown[] | null = grow(64);
    const grown = heapBytes();
    expect(garbage.length).toBeGreaterThan(0);
    garbage = null;
    const stop = shrinkHeapAtRest();
    try {
      await expect.poll(heapBytes, { timeout: 15_000, interval: 500 }).toBeLessThan(grown - 32 * MB);
    } finally {
      stop();
    }
  });
});
