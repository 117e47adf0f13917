import { describe, expect, it } from 'vitest';
import type { LocalQuery } from '../../../../main/contract/index.ts';
import { searchQueries } from '../../../../renderer/src/queries/search.ts';

const query = (id: number, name: string, tags: string[], sql: string | null): LocalQuery => ({
  id,
  name,
  tags,
  sql,
  description: '',
  owner: 'me',
  createdAt: null,
  updatedAt: null,
  isPrivate: false,
  isArchived: false,
  isGone: false,
});

const QUERIES = [
  query(1, 'Daily volume', ['dex'], 'SELECT day,\n    sum(amount_usd) AS volume\nFROM trades'),
  query(2, 'Wallets', ['users', 'Growth'], 'select wallet from trades'),
  query(3, 'Never opened', [], null),
  query(4, 'Long line', [], `select ${'x, '.repeat(40)}needle_column from t`),
];

describe('searchQueries', () => {
  it('finds by name and tag without a line, and by SQL with the matching line, in list order', () => {
    expect(searchQueries(QUERIES, 'growth').map((m) => [m.query.id, m.line])).toEqual([[2, null]]);
    expect(searchQueries(QUERIES, 'VOLUME').map((m) => [m.query.id, m.line])).toEqual([[1, null]]);
    const [match] = searchQueries(QUERIES, 'amount_usd');
    expect(match!.query.id).toBe(1);
    expect(match!.line).toEqual({ text: 'sum(amount_usd) AS volume', start: 4, end: 14 });
    expect(searchQueries(QUERIES, 'trades').map((m) => m.query.id)).toEqual([1, 2]);
  });

  it('cuts a long line to show the match, and skips queries whose SQL is not known', () => {
    const [match] = searchQueries(QUERIES, 'needle');
    expect(match!.query.id).toBe(4);
    expect(match!.line!.text.startsWith('…')).toBe(true);
    expect(match!.line!.text.slice(match!.line!.start, match!.line!.end)).toBe('needle');
    expect(searchQueries(QUERIES, 'opened').map((m) => m.query.id)).toEqual([3]);
    expect(searchQueries(QUERIES, '  ').map((m) => m.query.id)).toEqual([1, 2, 3, 4]);
  });
});
