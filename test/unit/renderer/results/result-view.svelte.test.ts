import { describe, expect, it } from 'vitest';
import { ResultView } from '../../../../renderer/src/results/result-view.svelte.ts';

const RESULT = {
  columnNames: ['amount', 'to'],
  columnTypes: ['uint256', 'varbinary'],
  totalRowCount: 2,
  totalBytes: 10,
  executionTimeMillis: 1,
};

describe("a result's view of onchain values", () => {
  it('scales a column by its decimals and back, by name', () => {
    const view = new ResultView(RESULT);
    expect(view.decimalsOf('amount')).toBe(0);
    view.scaleColumn('amount', 18);
    expect(view.decimalsOf('amount')).toBe(18);
    expect(view.decimals).toEqual({ amount: 18 });
    view.scaleColumn('amount', 0);
    expect(view.decimals).toEqual({});
  });

  it("starts from the query's saved scale and chain", () => {
    const view = new ResultView(RESULT, { typedFilters: '', hidden: [], decimals: { amount: 6 }, defaultChain: 'base' });
    expect(view.decimalsOf('amount')).toBe(6);
    expect(view.defaultChain).toBe('base');
    expect(new ResultView(RESULT, { typedFilters: '', hidden: [] }).defaultChain).toBeNull();
  });
});
