import { describe, expect, it } from 'vitest';
import { columnRef, compileResultRequest, equalsCondition, withinCondition, type Column } from '../../../main/filter-language/index.ts';

// Conditions written by code (a pivot group's drill-down) read back by the language as the rows
// they name: values in each type's form, times bounded by the unit that follows.

const columns: Column[] = [
  { name: 'amount', type: 'DECIMAL(18,2)' },
  { name: 'big', type: 'UHUGEINT', duneType: 'uint256' },
  { name: 'who said', type: 'VARCHAR' },
  { name: 'hash', type: 'BLOB', duneType: 'varbinary' },
  { name: 'ok', type: 'BOOLEAN' },
  { name: 't', type: 'TIMESTAMP' },
  { name: 'd', type: 'DATE' },
];

const params = (filters: string) => compileResultRequest({ filters }, columns).where?.params;

describe('columnRef', () => {
  it('leaves plain words bare and quotes the rest, keywords included', () => {
    expect(columnRef('amount')).toBe('amount');
    expect(columnRef('who said')).toBe('"who said"');
    expect(columnRef('and')).toBe('"and"');
  });
});

describe('equalsCondition', () => {
  it('writes each type of value so that the language binds it unchanged', () => {
    expect(equalsCondition('amount', 'decimal(18,2)', 12.5)).toBe('amount = 12.5');
    expect(params(equalsCondition('big', 'uint256', '100000000000000000000000017'))).toEqual(['100000000000000000000000017']);
    expect(equalsCondition('who said', 'varchar', "it's")).toBe(`"who said" = 'it''s'`);
    expect(params(equalsCondition('who said', 'varchar', "it's"))).toEqual(["it's"]);
    expect(params(equalsCondition('hash', 'varbinary', '0xdeadbeef'))).toEqual(['deadbeef']);
    expect(params(equalsCondition('ok', 'boolean', true))).toEqual(['true']);
    expect(equalsCondition('who said', 'varchar', null)).toBe('"who said" is null');
  });
});

describe('withinCondition', () => {
  it.each([
    ['2024-01-31 23:59:00.000 UTC', 'minute', '2024-01-31 23:59:00.000', '2024-02-01 00:00:00'],
    ['2024-02-28 23:00:00.000 UTC', 'hour', '2024-02-28 23:00:00.000', '2024-02-29 00:00:00'],
    ['2024-12-31 00:00:00.000 UTC', 'day', '2024-12-31 00:00:00.000', '2025-01-01 00:00:00'],
    ['2024-12-30 00:00:00.000 UTC', 'week', '2024-12-30 00:00:00.000', '2025-01-06 00:00:00'],
    ['2024-12-01 00:00:00.000 UTC', 'month', '2024-12-01 00:00:00.000', '2025-01-01 00:00:00'],
  ] as const)('bounds %s by its %s', (start, unit, from, to) => {
    expect(params(withinCondition('t', start, unit)!)).toEqual([from, to]);
  });

  it('bounds dates as dates', () => {
    expect(params(withinCondition('d', '2024-01-01', 'month')!)).toEqual(['2024-01-01', '2024-02-01']);
  });

  it('writes nothing for a value that is not a time', () => {
    expect(withinCondition('t', 'yesterday', 'day')).toBeNull();
  });
});
