import { DuckDBDecimalValue } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { storageType, toCacheCell } from '../../../../main/core/cache/storage-types.ts';
import { positionOf } from '../../../../main/core/results/view.ts';

describe('cache storage types', () => {
  it('keep each type exactly as the shared type module says, and anything unreadable as text', () => {
    const cases: [string | undefined, string][] = [
      ['bigint', 'BIGINT'],
      ['decimal(10,2)', 'DECIMAL(10,2)'],
      ['decimal(38, 0)', 'DECIMAL(38,0)'],
      ['timestamp', 'TIMESTAMP'],
      ['timestamp(3) with time zone', 'TIMESTAMP WITH TIME ZONE'],
      ['timestamp with time zone', 'TIMESTAMP WITH TIME ZONE'],
      ['double', 'DOUBLE'],
      // the double a real's text names: 0.1, not the float's 0.10000000149011612
      ['real', 'DOUBLE'],
      ['timestamp(9)', 'TIMESTAMP_NS'],
      ['boolean', 'BOOLEAN'],
      ['varbinary', 'BLOB'],
      ['BLOB', 'BLOB'],
      ['uint256', 'UHUGEINT'],
      ['int256', 'HUGEINT'],
      ['BIGNUM', 'BIGNUM'],
      ['array(varchar)', 'VARCHAR'],
      ['integer[]', 'VARCHAR'],
      ['decimal(10,2)); DROP TABLE cache_entries; --', 'VARCHAR'],
      [undefined, 'VARCHAR'],
    ];
    for (const [wire, stored] of cases) expect(storageType(wire), String(wire)).toBe(stored);
  });

  it('read integers beyond 2^53 back as strings, as the service sends them', () => {
    expect(toCacheCell(42n)).toBe(42);
    expect(toCacheCell(18_446_744_073_709_551_615n)).toBe('18446744073709551615');
    expect(toCacheCell(null)).toBeNull();
    expect(toCacheCell(true)).toBe(true);
  });

  it("read a double that is no number back as Dune's JSON has it, a string of its word", () => {
    expect([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.1].map(toCacheCell)).toEqual([
      'NaN',
      'Infinity',
      '-Infinity',
      0.1,
    ]);
  });

  it('read DuckDB decimals back as their exact digits, known without DuckDB’s class', () => {
    expect(toCacheCell(new DuckDBDecimalValue(123_456_789_012_345_678_901_234_567n, 38, 18))).toBe('123456789.012345678901234567');
    expect(toCacheCell(new DuckDBDecimalValue(12_345n, 10, 2))).toBe(123.45);
    expect(toCacheCell({ value: 'not a decimal', width: 10, scale: 2 })).toBe('[object Object]');
  });

  it('find the part and position in a refusal worded like the shared parser’s', () => {
    expect(positionOf('filters: unknown column "x" (the result\'s columns are: a, b) at position 3')).toEqual({
      part: 'filters',
      position: 3,
    });
    expect(positionOf('filters: Conversion Error: could not convert')).toBeUndefined();
  });
});
