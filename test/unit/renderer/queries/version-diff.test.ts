import { describe, expect, it } from 'vitest';
import type { QueryParameter, QueryVersion } from '../../../../main/contract/index.ts';
import { diffParameters, versionSummary } from '../../../../renderer/src/queries/version-diff.ts';

const days: QueryParameter = { key: 'days', type: 'number', value: '7' };
const chain: QueryParameter = { key: 'chain', type: 'enum', value: 'ethereum', enumOptions: ['ethereum', 'base'] };

function version(number: number, sql: string, parameters: QueryParameter[], name = 'Volume'): QueryVersion {
  return { version: number, recordedAt: '2026-03-01T10:00:00.000Z', name, sql, parameters };
}

describe('the parameters of two versions', () => {
  it('names the parameters added and removed', () => {
    expect(diffParameters([days], [chain])).toEqual([
      { key: 'chain', change: 'added', after: chain },
      { key: 'days', change: 'removed', before: days },
    ]);
  });

  it('says which part of a kept parameter changed: its default, type, choices', () => {
    expect(
      diffParameters(
        [days, chain],
        [
          { ...days, value: '30' },
          { ...chain, enumOptions: ['ethereum'], isMultiselect: true },
        ],
      ),
    ).toEqual([
      { key: 'days', change: 'changed', what: ['default 7 → 30'] },
      { key: 'chain', change: 'changed', what: ['choices ethereum, base → ethereum', 'now takes several values'] },
    ]);
    expect(diffParameters([days], [{ ...days, type: 'text', value: '' }])).toEqual([
      { key: 'days', change: 'changed', what: ['type number → text', 'default 7 → (empty)'] },
    ]);
  });

  it('finds no change in the same definitions', () => {
    expect(diffParameters([days, chain], [{ ...days }, { ...chain, enumOptions: ['ethereum', 'base'] }])).toEqual([]);
  });
});

describe('the line of a version', () => {
  it('sums up its SQL lines and parameters against the version before', () => {
    const before = version(1, 'SELECT 1\nFROM t', [days]);
    const after = version(2, 'SELECT 2\nFROM t\nLIMIT 5', [{ ...days, value: '30' }, chain]);
    expect(versionSummary(after, before)).toBe('SQL +2 −1 lines · parameter chain added · parameter days changed');
    expect(versionSummary(before, undefined)).toBe('The earliest version kept here.');
    expect(versionSummary(version(3, 'SELECT 1\nFROM t', [days], 'Renamed'), before)).toBe('renamed from “Volume”');
  });
});
