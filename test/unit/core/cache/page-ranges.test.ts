import { describe, expect, it } from 'vitest';
import { PageRanges } from '../../../../main/core/cache/page-ranges.ts';

// The pages a download asks for: planned up front, cut again when the service answers with fewer
// rows than asked, and never taken twice or skipped.

function takeAll(ranges: PageRanges) {
  const taken = [];
  for (let range = ranges.take(); range !== undefined; range = ranges.take()) taken.push(range);
  return taken;
}

describe('page ranges', () => {
  it('plan every page from the first row to resume from, the last one short', () => {
    expect(takeAll(new PageRanges(0, 25, 10))).toEqual([
      { offset: 0, end: 10 },
      { offset: 10, end: 20 },
      { offset: 20, end: 25 },
    ]);
    expect(takeAll(new PageRanges(20, 25, 10))).toEqual([{ offset: 20, end: 25 }]);
    expect(takeAll(new PageRanges(0, 0, 10))).toEqual([]);
  });

  it('ask for the rest of a page the service cut short in its place, and cut the pages not asked for yet to its size', () => {
    const ranges = new PageRanges(0, 30, 10);
    const first = ranges.take()!;
    const second = ranges.take()!;
    expect(ranges.arrived(first, 4)).toEqual({ offset: 0, end: 4 });
    expect(ranges.arrived(second, 14)).toEqual({ offset: 10, end: 14 });
    expect(takeAll(ranges)).toEqual([
      { offset: 4, end: 8 },
      { offset: 8, end: 10 },
      { offset: 14, end: 18 },
      { offset: 18, end: 20 },
      { offset: 20, end: 24 },
      { offset: 24, end: 28 },
      { offset: 28, end: 30 },
    ]);
  });

  it('take a page as asked for when the service says it was the last, or names an offset past it', () => {
    const ranges = new PageRanges(0, 20, 10);
    const first = ranges.take()!;
    expect(ranges.arrived(first, 25)).toEqual(first);
    expect(ranges.arrived(ranges.take()!, null)).toEqual({ offset: 10, end: 20 });
    expect(ranges.remaining).toBe(0);
  });

  it('refuse an offset after a page that does not move past its start', () => {
    const ranges = new PageRanges(0, 20, 10);
    ranges.take();
    const second = ranges.take()!;
    expect(ranges.arrived(second, 10)).toEqual(new Error('The service gave 10 as the offset after 10.'));
  });
});
