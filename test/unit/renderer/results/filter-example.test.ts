import { describe, expect, it } from 'vitest';
import { checkFilters } from '../../../../renderer/src/results/check-filters.ts';
import { filterExample, filterPlaceholder } from '../../../../renderer/src/results/filter-example.ts';
import type { ViewColumn } from '../../../../renderer/src/results/grid/view-language.ts';

const columns = (...specs: Array<[string, string]>): ViewColumn[] => specs.map(([name, type], index) => ({ name, type, index }));

describe("the filter bar's example", () => {
  it("names the result's own columns, a text one and a number, in a filter the bar accepts", () => {
    const result = columns(
      ['block_time', 'timestamp(3) with time zone'],
      ['token', 'varchar'],
      ['amount', 'uint256'],
      ['tx_hash', 'varbinary'],
    );
    const example = filterExample(result)!;
    expect(example).toBe("token = 'abc' AND block_time >= '2024-01-31'");
    expect(checkFilters(example, result)).toBeNull();
    expect(filterPlaceholder(result)).toBe("Filter: token = 'abc' AND block_time >= '2024-01-31'   (Enter applies)");
  });

  it('quotes a name that is not a plain word', () => {
    const result = columns(['amount usd', 'double'], ['and', 'varchar']);
    const example = filterExample(result)!;
    expect(example).toBe('"and" = \'abc\' AND "amount usd" > 100');
    expect(checkFilters(example, result)).toBeNull();
  });

  it('falls back to IS NULL for columns with no short example, and to no example without columns', () => {
    const result = columns(['tags', 'array(varchar)'], ['ok', 'boolean']);
    expect(filterExample(result)).toBe('tags IS NULL');
    expect(checkFilters(filterExample(result)!, result)).toBeNull();
    expect(filterExample(columns(['n', 'bigint']))).toBe('n > 100');
    expect(filterPlaceholder([])).toBe('Filter rows   (Enter applies)');
  });
});
