import { describe, expect, it } from 'vitest';
import { isLocalSql, isScratch, nextLocalSqlId, nextScratchId, scratchName } from '../../../../renderer/src/queries/scratch.svelte.ts';

// Scratch and local SQL tabs share the negative ids: each kind numbers its own tabs, and a new tab
// of one kind never takes the other's range.

describe('scratch and local SQL tab ids', () => {
  it('numbers scratch tabs down from -1, past the local SQL tabs open', () => {
    const local = nextLocalSqlId([]);
    expect(nextScratchId([4, local])).toBe(-1);
    expect(nextScratchId([-1, -2, local])).toBe(-3);
    expect(isLocalSql(nextScratchId([local]))).toBe(false);
  });

  it('numbers local SQL tabs in a range of their own, named from 1', () => {
    const first = nextLocalSqlId([-1, 7]);
    const second = nextLocalSqlId([-1, first]);
    expect([isLocalSql(first), isLocalSql(second), isScratch(first)]).toEqual([true, true, true]);
    expect([scratchName(first), scratchName(second), scratchName(-2)]).toEqual(['Local SQL 1', 'Local SQL 2', 'SQL 2']);
  });
});
