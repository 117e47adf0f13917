import { describe, expect, it } from 'vitest';
import type { ColumnProfile } from '../../../main/contract/index.ts';
import { quartileText } from '../../../renderer/src/results/profile/profile-text.ts';

const plain = { grouping: false };
const of = (kind: ColumnProfile['kind'], type: string) => ({ kind, type }) as ColumnProfile;

describe("a profile's worked-out figures", () => {
  it('keeps four decimals of a mean or quartile of numbers', () => {
    expect(quartileText(of('number', 'double'), 296601.49666666664, plain)).toBe('296601.4967');
    expect(quartileText(of('number', 'bigint'), 2.5, plain)).toBe('2.5');
    expect(quartileText(of('number', 'double'), null, plain)).toBe('null');
  });

  it('leaves the quartiles of times as the column writes them', () => {
    expect(quartileText(of('time', 'timestamp'), '2024-01-01 00:00:00.000 UTC', plain)).toBe('2024-01-01 00:00:00.000 UTC');
  });
});
