import { describe, expect, it } from 'vitest';
import { compareDecimal, readDecimal } from '../../../../../main/common/dune-types/index.ts';
import type { CellValue } from '../../../../../main/contract/index.ts';
import { cellComparator } from '../../../../../renderer/src/results/grid/cell-order.ts';

const UINT256_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

/** Sorts as AG Grid does with a column's comparator: reversed when descending. */
function sorted(kind: Parameters<typeof cellComparator>[0], values: CellValue[], descending = false): CellValue[] {
  const compare = cellComparator(kind);
  return [...values].sort((a, b) => (descending ? -1 : 1) * compare(a, b, null, null, descending));
}

describe('exact comparison of number texts', () => {
  it('orders by value, digit by digit, past what a double holds', () => {
    const compare = (a: string, b: string) => compareDecimal(readDecimal(a)!, readDecimal(b)!);
    expect(compare('9007199254740993', '9007199254740992')).toBe(1);
    expect(compare('-10', '-9')).toBe(-1);
    expect(compare('1.50', '1.5')).toBe(0);
    expect(compare('0.000000000000000001', '0')).toBe(1);
    expect(compare('-0.1', '0')).toBe(-1);
    expect(compare('123.456789012345678901', '123.456789012345678902')).toBe(-1);
  });
});

describe("a sample grid's order", () => {
  it('sorts uint256 values as numbers, text and JSON numbers mixed, nulls last both ways', () => {
    const values: CellValue[] = [UINT256_MAX, 10, null, 9, '9007199254740993', '9007199254740992'];
    expect(sorted('big-integer', values)).toEqual([9, 10, '9007199254740992', '9007199254740993', UINT256_MAX, null]);
    expect(sorted('big-integer', values, true)).toEqual([UINT256_MAX, '9007199254740993', '9007199254740992', 10, 9, null]);
  });

  it("puts a float column's specials around its numbers, and sorts text by its characters", () => {
    expect(sorted('float', ['NaN', 1.5, 'Infinity', -2, '-Infinity'])).toEqual(['-Infinity', -2, 1.5, 'Infinity', 'NaN']);
    // as an older embedded service spelt them
    expect(sorted('float', ['nan', 1.5, 'inf', -2, '-inf'])).toEqual(['-inf', -2, 1.5, 'inf', 'nan']);
    expect(sorted('decimal', ['1.123456789012345679', '1.123456789012345678', '-3'])).toEqual([
      '-3',
      '1.123456789012345678',
      '1.123456789012345679',
    ]);
    expect(sorted('binary', ['0x0b', null, '0x0a'])).toEqual(['0x0a', '0x0b', null]);
  });
});
