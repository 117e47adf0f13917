import { describe, expect, it } from 'vitest';
import type { QueryParameter } from '../../../../main/contract/index.ts';
import {
  fieldsOf,
  fieldValueOf,
  initialValue,
  problemOf,
  toPickerValue,
  toServiceDatetime,
  wireValues,
} from '../../../../renderer/src/queries/parameters.ts';

// The parameter form's rules: what a field starts with, what it refuses, and what is sent.

const number: QueryParameter = { key: 'min_usd', type: 'number', value: '1000' };
const when: QueryParameter = { key: 'since', type: 'datetime', value: '2024-03-01 08:30:00' };
const chains: QueryParameter = {
  key: 'chains',
  type: 'enum',
  value: 'base,nope,optimism',
  enumOptions: ['base', 'optimism', 'arbitrum'],
  isMultiselect: true,
};

describe('parameter fields', () => {
  it('adds the placeholders the SQL uses without a definition, as text', () => {
    const fields = fieldsOf([number], "SELECT {{ min_usd }}, '{{label}}', {{label}}, {{ limit }}");
    expect(fields.map((f) => [f.key, f.type, f.value])).toEqual([
      ['min_usd', 'number', '1000'],
      ['label', 'text', ''],
      ['limit', 'text', ''],
    ]);
  });

  it('converts date-times between the service and the picker', () => {
    expect(initialValue(when)).toBe('2024-03-01T08:30:00');
    expect(toPickerValue('2024-03-01 08:30')).toBe('2024-03-01T08:30:00');
    expect(toPickerValue('yesterday')).toBe('');
    expect(toServiceDatetime('2024-03-01T08:30')).toBe('2024-03-01 08:30:00');
    expect(toServiceDatetime('2024-03-01T08:30:15')).toBe('2024-03-01 08:30:15');
  });

  it('starts a multi-select with the default values it offers', () => {
    expect(initialValue(chains)).toEqual(['base', 'optimism']);
  });

  it('refuses text in a number field, in words for beside the field', () => {
    expect(problemOf(number, '12abc')).toBe('“12abc” is not a number. Enter digits, such as 42 or 0.5.');
    expect(problemOf(number, ' ')).toBe('Enter a number.');
    for (const ok of ['42', '-3', '0.5', '.5', '1e6', ' 7 ']) expect(problemOf(number, ok)).toBeNull();
    expect(problemOf(when, '')).toBe('Pick a date and time.');
    expect(problemOf(chains, [])).toBe('Choose at least one value.');
  });

  it('flags an empty text value and a lone quote in one, before the run', () => {
    const label: QueryParameter = { key: 'label', type: 'text', value: '' };
    expect(problemOf(label, '  ')).toBe('Enter a value.');
    expect(problemOf(label, "it's")).toBe("A ' ends the quotes around the value in the SQL: write it twice ('') to keep it.");
    for (const ok of ["it''s", 'plain', "''"]) expect(problemOf(label, ok)).toBeNull();
  });

  it('sends numbers trimmed, date-times as the service writes them, multi-selects as lists', () => {
    const text: QueryParameter = { key: 'note', type: 'text', value: '' };
    expect(wireValues([number, when, chains, text], { min_usd: ' 250 ', since: '2024-05-06T07:08', chains: ['arbitrum'] })).toEqual({
      min_usd: '250',
      since: '2024-05-06 07:08:00',
      chains: ['arbitrum'],
      note: '',
    });
  });

  it('takes a typed value for an enum fed by another query or open to any value, keeping its default', () => {
    // Dune's enum fed by a column of another query's result: the app knows no options for it
    const fed: QueryParameter = {
      key: 'tokens',
      type: 'enum',
      value: 'USDC, WETH',
      isMultiselect: true,
      enumFromResults: { queryId: 7, columnName: 'symbol' },
    };
    const open: QueryParameter = { key: 'chain', type: 'enum', value: 'zora', enumOptions: ['base'], isFreeformAllowed: true };
    expect(initialValue(fed)).toBe('USDC, WETH');
    expect(initialValue(open)).toBe('zora');
    expect(wireValues([fed, open], {})).toEqual({ tokens: ['USDC', 'WETH'], chain: 'zora' });
    expect(wireValues([fed, open], { tokens: 'DAI,, UNI ', chain: 'base' })).toEqual({ tokens: ['DAI', 'UNI'], chain: 'base' });
    expect(fieldValueOf(fed, ['DAI', 'UNI'])).toBe('DAI, UNI');
    expect(problemOf(fed, ' ')).toBe('Choose a value.');
    // a picked enum keeps only the values it offers
    expect(initialValue({ ...chains, value: 'zora' })).toEqual([]);
  });
});
