import { describe, expect, it } from 'vitest';
import { cellFormat, decimalScale } from '../../../../../renderer/src/results/grid/cell-format.ts';

const plain = { grouping: false };
const english = { grouping: true, locale: 'en-US' };
const german = { grouping: true, locale: 'de-DE' };

describe('cells as their type says', () => {
  it('shows a DECIMAL with its scale, from a number or from exact text', () => {
    const fee = cellFormat('DECIMAL(10,2)', plain);
    expect([0.1, 1, -3.5, 12.25, 0].map(fee)).toEqual(['0.10', '1.00', '-3.50', '12.25', '0.00']);
    expect(fee('123456789012345678.9')).toBe('123456789012345678.90');
    expect(cellFormat('decimal(38, 9)', plain)('12345678901234567890123456789.123456789')).toBe('12345678901234567890123456789.123456789');
    expect(cellFormat('DECIMAL(18,0)', plain)(42)).toBe('42');
    expect(decimalScale('DECIMAL(18, 6)')).toBe(6);
    expect(decimalScale('DOUBLE')).toBeNull();
  });

  it("pads a DECIMAL that arrives as a number from the number's own digits, never through arithmetic", () => {
    expect(cellFormat('decimal(38,18)', plain)(98.8)).toBe('98.800000000000000000');
    expect(cellFormat('decimal(18,18)', plain)(-0.05)).toBe('-0.050000000000000000');
    expect(cellFormat('decimal(20,10)', plain)(1234567.891)).toBe('1234567.8910000000');
    expect(cellFormat('decimal(38,18)', english)(123456789.123)).toBe('123,456,789.123000000000000000');
    // a number's digits past the scale are kept, not rounded away
    expect(cellFormat('decimal(10,2)', plain)(0.125)).toBe('0.125');
    expect(cellFormat('decimal(38,38)', plain)(3.1e-5)).toBe('0.00003100000000000000000000000000000000');
  });

  it('keeps integers past 2^53 exact, and groups their digits only when asked', () => {
    expect(cellFormat('UHUGEINT', plain)('340282366920938463463374607431768211455')).toBe('340282366920938463463374607431768211455');
    expect(cellFormat('UHUGEINT', english)('340282366920938463463374607431768211455')).toBe(
      '340,282,366,920,938,463,463,374,607,431,768,211,455',
    );
    expect(cellFormat('BIGINT', english)(-1234567)).toBe('-1,234,567');
    expect(cellFormat('INTEGER', english)(999)).toBe('999');
    expect(cellFormat('BIGINT', plain)(1234567)).toBe('1234567');
  });

  it('writes separators and the decimal sign of the locale, and leaves what is not a plain number as it is', () => {
    expect(cellFormat('DECIMAL(10,2)', german)(1234567.5)).toBe('1.234.567,50');
    expect(cellFormat('DOUBLE', english)(1234.5678)).toBe('1,234.5678');
    expect(cellFormat('DOUBLE', english)(1e300)).toBe('1e+300');
    expect(cellFormat('DOUBLE', english)('NaN')).toBe('NaN');
    // a double that is no number as Dune writes it, whichever spelling a service sent or the cache read
    expect(['nan', 'inf', '-inf', 'Infinity', Number.NaN, Number.NEGATIVE_INFINITY].map(cellFormat('double', plain))).toEqual([
      'NaN',
      'Infinity',
      '-Infinity',
      'Infinity',
      'NaN',
      '-Infinity',
    ]);
    expect(cellFormat('real', plain)(0.1)).toBe('0.1');
    expect(cellFormat('VARCHAR', english)('12345')).toBe('12345');
    expect(cellFormat('DATE', english)('2024-01-01')).toBe('2024-01-01');
  });

  it('shows null as null, and nothing for a cell not loaded yet', () => {
    const format = cellFormat('DECIMAL(10,2)', english);
    expect(format(null)).toBe('null');
    expect(format(undefined)).toBe('');
    expect(cellFormat('BOOLEAN', english)(true)).toBe('true');
  });
});

describe("Dune's types in cells", () => {
  const UINT_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

  it('keeps every digit of uint256 and int256, whatever the service calls them', () => {
    expect(cellFormat('uint256', plain)(UINT_MAX)).toBe(UINT_MAX);
    expect(cellFormat('int256', english)('-1000000')).toBe('-1,000,000');
    expect(cellFormat('BIGNUM', plain)(42)).toBe('42');
  });

  it("shows bytes as 0x hex, from the hosted service or from DuckDB's escaped text", () => {
    expect(cellFormat('varbinary', plain)('0xD8DA6BF26964AF9D7EED9E03E53415D37AA96045')).toBe('0xd8da6bf26964af9d7eed9e03e53415d37aa96045');
    expect(cellFormat('BLOB', plain)('\\xDE\\xAD\\xBE\\xEFab')).toBe('0xdeadbeef6162');
    // a value that is not bytes is shown as received
    expect(cellFormat('varbinary', plain)('not bytes é')).toBe('not bytes é');
  });

  it('scales an integer column by its decimals exactly, and nothing else', () => {
    const tokens = cellFormat('uint256', plain, 18);
    expect(tokens('1500000000000000000')).toBe('1.5');
    expect(tokens('1')).toBe('0.000000000000000001');
    expect(tokens(UINT_MAX)).toBe('115792089237316195423570985008687907853269984665640564039457.584007913129639935');
    expect(cellFormat('int256', english, 6)('-1234567890000')).toBe('-1,234,567.89');
    expect(cellFormat('bigint', plain, 2)(12345)).toBe('123.45');
    expect(cellFormat('double', plain, 2)(12345)).toBe('12345');
    expect(cellFormat('varchar', plain, 2)('12345')).toBe('12345');
  });

  it('leaves nested values and JSON as their text', () => {
    expect(cellFormat('array(varchar)', plain)('["a","b"]')).toBe('["a","b"]');
    expect(cellFormat('STRUCT(a INTEGER)', plain)('{"a":1}')).toBe('{"a":1}');
    expect(cellFormat('json', plain)('{"x": 12345678901234567890}')).toBe('{"x": 12345678901234567890}');
    expect(cellFormat('geometry', plain)('POINT(1 2)')).toBe('POINT(1 2)');
  });
});
