import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LaterWrites } from '../../../../renderer/src/lib/later-writes.ts';

// A window's writes that wait for a pause: each key keeps its last write, and a flush (the window
// closing, its host stopping) sends every one still waiting at once.

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('later writes', () => {
  it('run once the changes under a key pause, the last one only', () => {
    const later = new LaterWrites();
    const written: string[] = [];
    later.schedule('a', 300, () => written.push('a1'));
    vi.advanceTimersByTime(200);
    later.schedule('a', 300, () => written.push('a2'));
    later.schedule('b', 100, () => written.push('b1'));
    vi.advanceTimersByTime(200);
    expect(written).toEqual(['b1']);
    vi.advanceTimersByTime(100);
    expect(written).toEqual(['b1', 'a2']);
    vi.advanceTimersByTime(1_000);
    expect(written).toEqual(['b1', 'a2']);
  });

  it('send every write still waiting at a flush, in order, and none of them again', () => {
    const later = new LaterWrites();
    const written: string[] = [];
    later.schedule('tabs', 300, () => written.push('tabs'));
    later.schedule('draft', 300, () => written.push('draft'));
    later.schedule('view', 400, () => written.push('view'));
    later.cancel('draft');
    later.flush();
    expect(written).toEqual(['tabs', 'view']);
    vi.advanceTimersByTime(1_000);
    later.flush();
    expect(written).toEqual(['tabs', 'view']);
  });
});
