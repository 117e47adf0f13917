import { describe, expect, it } from 'vitest';
import { CellBlock } from '../../../../../renderer/src/results/grid/cell-block.ts';

const columns = ['c0', 'c1', 'c2', 'c3'];

describe('a block of cells', () => {
  it('starts on one cell and stretches to another, in either direction', () => {
    const block = new CellBlock();
    block.start({ row: 5, colId: 'c2' }, columns);
    expect(block.stretched).toBe(false);
    expect(block.cellCount()).toBe(1);
    block.stretch({ row: 2, colId: 'c0' }, columns);
    expect(block.bounds()).toEqual({ top: 2, bottom: 5, colIds: ['c0', 'c1', 'c2'] });
    expect(block.stretched).toBe(true);
    expect(block.cellCount()).toBe(12);
    expect(block.contains(3, 'c1')).toBe(true);
    expect(block.contains(3, 'c3')).toBe(false);
    expect(block.contains(6, 'c0')).toBe(false);
    expect(block.focus).toEqual({ row: 2, colId: 'c0' });
  });

  it('keeps the columns in the order they were shown when it was made', () => {
    const block = new CellBlock();
    block.start({ row: 0, colId: 'c3' }, ['c3', 'c0', 'c1', 'c2']);
    block.stretch({ row: 1, colId: 'c0' }, ['c3', 'c0', 'c1', 'c2']);
    expect(block.bounds()?.colIds).toEqual(['c3', 'c0']);
  });

  it('stretched without a start, or from a column no longer shown, starts afresh', () => {
    const block = new CellBlock();
    block.stretch({ row: 4, colId: 'c1' }, columns);
    expect(block.bounds()).toEqual({ top: 4, bottom: 4, colIds: ['c1'] });
    block.stretch({ row: 6, colId: 'c0' }, ['c0', 'c2']);
    expect(block.bounds()).toEqual({ top: 6, bottom: 6, colIds: ['c0'] });
  });

  it('takes every cell of the view, and nothing of an empty one', () => {
    const block = new CellBlock();
    block.all(1000, columns);
    expect(block.bounds()).toEqual({ top: 0, bottom: 999, colIds: columns });
    expect(block.cellCount()).toBe(4000);
    block.all(0, columns);
    expect(block.bounds()).toBeNull();
    expect(block.contains(0, 'c0')).toBe(false);
  });
});
