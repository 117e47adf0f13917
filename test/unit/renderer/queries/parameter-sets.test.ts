import { describe, expect, it } from 'vitest';
import type { QueryParameter } from '../../../../main/contract/index.ts';
import { pickSet } from '../../../../renderer/src/queries/parameter-sets.ts';

const fields: QueryParameter[] = [
  { key: 'days', type: 'number', value: '7' },
  { key: 'chain', type: 'enum', value: 'ethereum', enumOptions: ['ethereum', 'base'] },
  { key: 'since', type: 'datetime', value: '2026-01-01 00:00:00' },
];

describe('picking a parameter set', () => {
  it('takes every value that fits the query as it is now', () => {
    expect(pickSet(fields, { days: '30', chain: 'base', since: '2026-02-01 00:00:00' })).toEqual({
      values: { days: '30', chain: 'base', since: '2026-02-01 00:00:00' },
      problems: [],
    });
  });

  it('says which parameter is gone, and which value its type or choices refuse, keeping the rest', () => {
    const picked = pickSet(fields, { days: 'a week', chain: 'solana', network: 'mainnet', since: '2026-02-01 00:00:00' });
    expect(picked.values).toEqual({ since: '2026-02-01 00:00:00' });
    expect(picked.problems).toEqual([
      expect.stringMatching(/^days: “a week” is not a number/),
      expect.stringMatching(/^chain: “solana” is no longer a choice/),
      expect.stringMatching(/^“network” is no longer a parameter of this query/),
    ]);
  });

  it('keeps a value an enum fed by another query, or open to any value, was given', () => {
    const typed: QueryParameter[] = [
      { key: 'token', type: 'enum', value: 'USDC', enumFromResults: { queryId: 7, columnName: 'symbol' } },
      { key: 'chain', type: 'enum', value: 'base', enumOptions: ['base'], isFreeformAllowed: true },
    ];
    expect(pickSet(typed, { token: 'WETH', chain: 'zora' })).toEqual({ values: { token: 'WETH', chain: 'zora' }, problems: [] });
  });
});
