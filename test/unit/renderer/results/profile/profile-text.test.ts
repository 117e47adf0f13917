import { describe, expect, it } from 'vitest';
import type { ColumnProfile } from '../../../../../main/contract/index.ts';
import { axisEnd, distinctText, quartileText, valueText } from '../../../../../renderer/src/results/profile/profile-text.ts';

const plain = { grouping: false };
const of = (kind: ColumnProfile['kind'], type: string) => ({ kind, type }) as ColumnProfile;

describe("a profile's worked-out figures", () => {
  it('keeps four decimals of a mean or quartile of numbers', () => {
    expect(quartileText(of('number', 'double'), 296601.49666666664, plain)).toBe('296601.4967');
    expect(quartileText(of('number', 'bigint'), 2.5, plain)).toBe('2.5');
    expect(quartileText(of('number', 'double'), null, plain)).toBe('null');
  });

  it("writes a decimal's min, max or top value that arrives as a number to its scale, digit for digit", () => {
    expect(valueText(of('number', 'decimal(18,18)'), -0.05, plain)).toBe('-0.050000000000000000');
    expect(valueText(of('number', 'decimal(38,18)'), 98.8, plain)).toBe('98.800000000000000000');
  });

  it('leaves the quartiles of times as the column writes them', () => {
    expect(quartileText(of('time', 'timestamp'), '2024-01-01 00:00:00.000 UTC', plain)).toBe('2024-01-01 00:00:00.000 UTC');
  });
});

describe("a profile's axis and distinct count", () => {
  const profile = (
    kind: ColumnProfile['kind'],
    type: string,
    min: ColumnProfile['min'],
    max: ColumnProfile['max'],
    from: number,
    to: number,
  ) =>
    ({
      kind,
      type,
      min,
      max,
      histogram: [
        { from, to: (from + to) / 2, count: 1 },
        { from: (from + to) / 2, to, count: 1 },
      ],
    }) as ColumnProfile;

  it("ends a number's axis at the column's own min and max, never past them", () => {
    const ids = profile('number', 'bigint', 1, 99_999, 1, 99_999);
    expect([axisEnd(ids, 'min', plain), axisEnd(ids, 'max', plain)]).toEqual(['1', '99999']);
    const amounts = profile(
      'number',
      'uint256',
      '0',
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      0,
      1.157920892373162e77,
    );
    expect(axisEnd(amounts, 'max', plain)).toBe('115792089237316195423570985008687907853269984665640564039457584007913129639935');
  });

  it("ends a time's axis at its edges, to the minute", () => {
    const times = profile(
      'time',
      'timestamp(3)',
      '2024-01-01 00:00:00.000 UTC',
      '2024-01-02 10:59:59.999 UTC',
      Date.UTC(2024, 0, 1),
      Date.UTC(2024, 0, 2, 10, 59, 59, 999),
    );
    expect([axisEnd(times, 'min', plain), axisEnd(times, 'max', plain)]).toEqual(['2024-01-01 00:00', '2024-01-02 10:59']);
  });

  it('says an estimate is one, with its margin', () => {
    expect(distinctText({ count: 1000, exact: true })).toBe('1,000');
    expect(distinctText({ count: 1_234_567, exact: false, error: 0.0044 })).toBe('≈ 1,234,567 (±0.4%)');
  });
});
