import { describe, expect, it } from 'vitest';
import { compileResultRequest, FilterLanguageError, type Column } from '../../../main/filter-language/index.ts';

const columns: Column[] = [
  { name: 'id', type: 'BIGINT' },
  { name: 'block time', type: 'TIMESTAMP' },
  { name: 'Chain', type: 'VARCHAR' },
  { name: 'kind', type: "ENUM('a', 'b')" },
];

describe('compileResultRequest', () => {
  it('binds every value and casts it to its column type', () => {
    const compiled = compileResultRequest(
      {
        filters: `id >= 5 and ("block time" > '2024-01-01 00:00:00.000 UTC' or chain in ('base', 'x''); drop table t; --'))`,
        sortBy: 'id desc, chain',
      },
      columns,
    );
    expect(compiled.where).toEqual({
      sql: `("id" >= CAST(? AS BIGINT) AND ("block time" > CAST(? AS TIMESTAMP) OR "Chain" IN (CAST(? AS VARCHAR), CAST(? AS VARCHAR))))`,
      params: ['5', '2024-01-01 00:00:00.000', 'base', "x'); drop table t; --"],
    });
    expect(compiled.orderBy).toBe('"id" DESC, "Chain" ASC');
    expect(compiled.columns).toBe(columns);
  });

  it('compares enums and LIKE patterns as text, and tests nulls', () => {
    const compiled = compileResultRequest({ filters: `kind = 'a' and id like '1%' and chain is not null` }, columns);
    expect(compiled.where?.sql).toBe(
      `((CAST("kind" AS VARCHAR) = CAST(? AS VARCHAR) AND CAST("id" AS VARCHAR) LIKE ?) AND "Chain" IS NOT NULL)`,
    );
    expect(compiled.where?.params).toEqual(['a', '1%']);
  });

  it('matches bytes by a lower-case pattern, whatever its case', () => {
    const compiled = compileResultRequest({ filters: `hash like '0xAB%'` }, [{ name: 'hash', type: 'BLOB' }]);
    expect(compiled.where).toEqual({ sql: `('0x' || lower(hex("hash"))) LIKE lower(?)`, params: ['0xAB%'] });
  });

  it('selects columns in the asked order, each once', () => {
    expect(compileResultRequest({ columns: 'kind,id,kind' }, columns).columns.map((c) => c.name)).toEqual(['kind', 'id']);
  });

  it('refuses an unknown column in any part, naming it and its position', () => {
    for (const [request, part, position] of [
      [{ filters: 'id = 1 or nope = 2' }, 'filters', 11],
      [{ sortBy: 'id, nope desc' }, 'sort_by', 5],
      [{ columns: 'id,nope' }, 'columns', 4],
    ] as const) {
      try {
        compileResultRequest(request, columns);
        throw new Error('expected a refusal');
      } catch (error) {
        expect(error).toBeInstanceOf(FilterLanguageError);
        const refusal = error as FilterLanguageError;
        expect(refusal.part).toBe(part);
        expect(refusal.position).toBe(position);
        expect(refusal.message).toContain('unknown column "nope"');
      }
    }
  });

  it('ignores empty options', () => {
    expect(compileResultRequest({ filters: ' ', sortBy: '', columns: null }, columns)).toEqual({ columns, where: null, orderBy: null });
  });
});
