import { describe, expect, it } from 'vitest';
import { FailedRows, placeholderText } from '../../../../../renderer/src/results/grid/row-placeholder.ts';

// A row the grid has no data for yet says whether it is on its way or could not be read (the
// grid's cells show it: results.spec.ts, a download broken off).

describe('a row without its data', () => {
  it('says loading, or not loaded while its block is failed, until the block is asked for again', () => {
    const failed = new FailedRows();
    const shown = (row: number | null) => placeholderText(failed, row);
    expect(shown(120)).toBe('loading…');
    failed.failed(100, 200);
    expect([shown(99), shown(100), shown(199), shown(200), shown(null)]).toEqual([
      'loading…',
      'not loaded',
      'not loaded',
      'loading…',
      'loading…',
    ]);
    failed.asked(100);
    expect(shown(150)).toBe('loading…');
    failed.failed(0, 100);
    failed.clear();
    expect(shown(50)).toBe('loading…');
    expect(placeholderText(undefined, 5)).toBe('loading…');
  });
});
