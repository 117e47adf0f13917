import { describe, expect, it } from 'vitest';
import { compileFilters, FilterLanguageError, parseFilters, type Column } from '../../../main/filter-language/index.ts';

const columns: Column[] = [
  { name: 'amount_usd', type: 'double' },
  { name: 'fee', type: 'DECIMAL(10,2)' },
  { name: 'id', type: 'BIGINT' },
  { name: 'day', type: 'DATE' },
  { name: 'at', type: 'TIMESTAMP WITH TIME ZONE' },
  { name: 'is_buy', type: 'BOOLEAN' },
  { name: 'tags', type: 'VARCHAR[]' },
  { name: 'chain', type: 'VARCHAR' },
];

function refusal(filters: string): { message: string; position: number } | null {
  try {
    compileFilters(parseFilters(filters), columns);
    return null;
  } catch (error) {
    if (error instanceof FilterLanguageError) return { message: error.message, position: error.position };
    throw error;
  }
}

describe("a filter's values against their column's type", () => {
  it('refuses a value that is not a number for a number column, at the value', () => {
    expect(refusal("amount_usd > 'abc'")).toEqual({
      message: "filters: amount_usd holds numbers (double); 'abc' is not a number at position 14",
      position: 14,
    });
    expect(refusal("chain = 'base' and fee in (1, '2x')")?.position).toBe(31);
    expect(refusal("id = '1e'")?.message).toMatch(/^filters: id holds numbers \(bigint\)/);
  });

  it('refuses a date or time that does not start as one, and a boolean that is neither', () => {
    expect(refusal("day >= 'yesterday'")?.message).toMatch(/day holds dates \(date\); 'yesterday' is not a date, write one as 2024-01-31/);
    expect(refusal("at < 'soon'")?.position).toBe(6);
    expect(refusal("is_buy = 'maybe'")?.message).toMatch(/is_buy holds true or false/);
  });

  it('refuses comparing a list with one value, and says what works', () => {
    expect(refusal("tags = 'a'")?.message).toMatch(/tags is of type varchar\[\], which compares with no single value; use IS NULL or LIKE/);
    expect(refusal("tags like '%a%' and tags is not null")).toBeNull();
  });

  it('lets through every value DuckDB reads for the type', () => {
    for (const filters of [
      "amount_usd > ' 12.5 '",
      'amount_usd > -1.5e3',
      "amount_usd != 'NaN'",
      "amount_usd < '-inf'",
      'fee = .5',
      "id in ('1', 2, '+3')",
      "day >= '2024-1-5'",
      "at > '2024-01-10 00:00:00.000 UTC'",
      "at > 'infinity'",
      "is_buy = 'true' or is_buy = 'f' or is_buy = 0",
      "chain = 'anything' or chain < 'b'",
    ]) {
      expect(refusal(filters), filters).toBeNull();
    }
  });

  it('keeps a float word for float columns only', () => {
    expect(refusal("id = 'nan'")?.message).toMatch(/'nan' is not a number/);
  });
});
