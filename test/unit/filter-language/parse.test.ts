import { describe, expect, it } from 'vitest';
import { FilterLanguageError, MAX_FILTER_NESTING, parseColumns, parseFilters, parseSort } from '../../../main/filter-language/index.ts';

function refusal(run: () => unknown): { message: string; position: number } {
  try {
    run();
  } catch (error) {
    if (error instanceof FilterLanguageError) return { message: error.message, position: error.position };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseFilters', () => {
  it('parses criteria joined by AND / OR with AND binding tighter, and parentheses', () => {
    expect(parseFilters(`a = 1 OR b > 'x' AND "c d" IN ('p', 2)`)).toEqual({
      kind: 'or',
      left: { kind: 'compare', column: { name: 'a', position: 1 }, operator: '=', value: { kind: 'number', text: '1', position: 5 } },
      right: {
        kind: 'and',
        left: { kind: 'compare', column: { name: 'b', position: 10 }, operator: '>', value: { kind: 'string', text: 'x', position: 14 } },
        right: {
          kind: 'in',
          column: { name: 'c d', position: 22 },
          values: [
            { kind: 'string', text: 'p', position: 32 },
            { kind: 'number', text: '2', position: 37 },
          ],
        },
      },
    });
    const grouped = parseFilters("(a = 1 or a = 2) and b like '%x%'");
    expect(grouped.kind).toBe('and');
  });

  it('reads escaped quotes, negative numbers, IS NULL and IS NOT NULL, keywords in any case', () => {
    expect(parseFilters(`name = 'it''s' aNd n >= -1.5e3 Or x iS nOt NuLl or y is null`)).toMatchObject({
      kind: 'or',
      left: {
        kind: 'or',
        left: { kind: 'and', left: { value: { text: "it's" } }, right: { operator: '>=', value: { kind: 'number', text: '-1.5e3' } } },
        right: { kind: 'is-null', negated: true },
      },
      right: { kind: 'is-null', negated: false },
    });
    expect(parseFilters('"we""ird" = 1')).toMatchObject({ column: { name: 'we"ird' } });
  });

  it('refuses NOT in every form, saying so', () => {
    for (const text of ['a NOT IN (1)', "a not like 'x'", 'NOT a = 1', 'a = 1 AND NOT (b = 2)']) {
      expect(refusal(() => parseFilters(text)).message).toMatch(/^filters: NOT is not supported/);
    }
    expect(refusal(() => parseFilters('a = 1 and not b = 2')).position).toBe(11);
  });

  it('names a bad operator, an unbalanced parenthesis and an expression, with their positions', () => {
    expect(refusal(() => parseFilters('a == 1'))).toEqual({
      message: "filters: unknown operator '==' (use = != <> < <= > >=, IN, LIKE or IS NULL) at position 3",
      position: 3,
    });
    expect(refusal(() => parseFilters('(a = 1 or b = 2'))).toEqual({
      message: "filters: unbalanced parenthesis: '(' is never closed at position 1",
      position: 1,
    });
    expect(refusal(() => parseFilters('a = 1)'))).toMatchObject({ position: 6, message: /unbalanced parenthesis/ });
    expect(refusal(() => parseFilters('t > now()'))).toMatchObject({ position: 5, message: /expected a value/ });
    expect(refusal(() => parseFilters("a = 'open"))).toMatchObject({ position: 5, message: /unterminated string/ });
    expect(refusal(() => parseFilters('a = 1; drop table x'))).toMatchObject({ position: 6, message: /unexpected character ';'/ });
    expect(refusal(() => parseFilters('a'))).toMatchObject({ position: 2, message: /expected an operator/ });
    expect(refusal(() => parseFilters('a = 1 b = 2'))).toMatchObject({ position: 7, message: /unexpected 'b'/ });
  });

  it(`reads parentheses ${MAX_FILTER_NESTING} deep and refuses one more, where it opens`, () => {
    const nested = (depth: number) => `${'(a = 1 or '.repeat(depth)}a = 2${')'.repeat(depth)}`;
    expect(() => parseFilters(nested(MAX_FILTER_NESTING))).not.toThrow();
    expect(refusal(() => parseFilters(nested(MAX_FILTER_NESTING + 1)))).toEqual({
      message: `filters: parentheses nest deeper than ${MAX_FILTER_NESTING} levels at position ${MAX_FILTER_NESTING * 10 + 1}`,
      position: MAX_FILTER_NESTING * 10 + 1,
    });
    // however deep the text goes, the refusal comes at the first level past the limit
    expect(refusal(() => parseFilters(nested(5000))).position).toBe(MAX_FILTER_NESTING * 10 + 1);
  });
});

describe('parseSort', () => {
  it('reads terms with optional directions', () => {
    expect(parseSort('amount desc, "block time", id ASC')).toEqual([
      { column: { name: 'amount', position: 1 }, direction: 'desc' },
      { column: { name: 'block time', position: 14 }, direction: 'asc' },
      { column: { name: 'id', position: 28 }, direction: 'asc' },
    ]);
  });

  it('refuses a trailing comma or an unknown direction', () => {
    expect(refusal(() => parseSort('a,'))).toMatchObject({ position: 3, message: /expected a column name/ });
    expect(refusal(() => parseSort('a up'))).toMatchObject({ position: 3, message: /unexpected 'up'/ });
  });
});

describe('parseColumns', () => {
  it('takes names as written, or quoted', () => {
    expect(parseColumns('a,amount-usd,"x,y",b.c')).toEqual([
      { name: 'a', position: 1 },
      { name: 'amount-usd', position: 3 },
      { name: 'x,y', position: 14 },
      { name: 'b.c', position: 20 },
    ]);
  });

  it('refuses empty names', () => {
    expect(refusal(() => parseColumns('a,,b'))).toMatchObject({ position: 3, message: /empty column name/ });
  });
});
