import { describe, expect, it } from 'vitest';
import { uniqueColumnNames } from '../../../../main/service/results/column-names.ts';

describe("a result's column names", () => {
  it('stay as they are when they differ, whatever the case', () => {
    expect(uniqueColumnNames(['a', 'b', 'Total'])).toEqual(['a', 'b', 'Total']);
  });

  it('get the first free suffix when they repeat, compared without case', () => {
    expect(uniqueColumnNames(['c', 'c', 'C'])).toEqual(['c', 'c_1', 'C_2']);
    expect(uniqueColumnNames(['x', 'x_1', 'x'])).toEqual(['x', 'x_1', 'x_2']);
  });
});
