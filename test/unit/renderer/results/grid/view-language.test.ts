import { describe, expect, it } from 'vitest';
import { kindOf, parseType } from '../../../../../main/common/dune-types/index.ts';
import {
  compileFilters,
  compileSort,
  parseColumns,
  parseFilters,
  parseSort,
  selectColumns,
} from '../../../../../main/filter-language/index.ts';
import { checkFilters } from '../../../../../renderer/src/results/check-filters.ts';
import { toTsv } from '../../../../../renderer/src/results/grid/tsv.ts';
import {
  columnRef,
  columnsParam,
  combineFilters,
  filterFor,
  filtersParam,
  sortByParam,
  type ViewColumn,
} from '../../../../../renderer/src/results/grid/view-language.ts';

// The grid's sorts and filters as the service's language: every text the renderer writes must
// read back, through the shared parser, as what the user picked.

const columns: ViewColumn[] = [
  { name: 'id', type: 'BIGINT', index: 0 },
  { name: 'block time', type: 'TIMESTAMP', index: 1 },
  { name: 'chain', type: 'VARCHAR', index: 2 },
  { name: 'say "hi", ok', type: 'VARCHAR', index: 3 },
  { name: 'desc', type: 'DOUBLE', index: 4 },
];
const byId = new Map(columns.map((c) => [`c${c.index}`, c]));

describe('sort_by from the headers', () => {
  it('keeps the order of the sorts and quotes names that are not plain words', () => {
    const text = sortByParam(
      [
        { colId: 'c1', sort: 'desc' },
        { colId: 'c4', sort: 'asc' },
        { colId: 'c3', sort: 'asc' },
      ],
      byId,
    );
    expect(text).toBe('"block time" desc, "desc" asc, "say ""hi"", ok" asc');
    expect(compileSort(parseSort(text), columns)).toBe('"block time" DESC, "desc" ASC, "say ""hi"", ok" ASC');
  });

  it('leaves plain names bare', () => {
    expect(columnRef('amount_usd')).toBe('amount_usd');
    expect(columnRef('or')).toBe('"or"');
  });
});

describe('filters from the column filters', () => {
  it('writes text filters as LIKE or =, with single quotes doubled', () => {
    const text = filtersParam(
      {
        c2: { filterType: 'text', type: 'contains', filter: "o'b" },
        c3: { filterType: 'text', type: 'equals', filter: "it's" },
      },
      byId,
    );
    expect(text).toBe(`chain LIKE '%o''b%' AND "say ""hi"", ok" = 'it''s'`);
    expect(compileFilters(parseFilters(text), columns).params).toEqual(["%o'b%", "it's"]);
  });

  it('writes number filters, ranges and joined conditions', () => {
    const text = filtersParam(
      {
        c0: { filterType: 'number', type: 'inRange', filter: 10, filterTo: 20 },
        c4: {
          filterType: 'number',
          operator: 'OR',
          conditions: [
            { filterType: 'number', type: 'lessThan', filter: -1.5 },
            { filterType: 'number', type: 'greaterThan', filter: 1e21 },
          ],
        },
      },
      byId,
    );
    expect(text).toBe('(id >= 10 AND id <= 20) AND ("desc" < -1.5 OR "desc" > 1e+21)');
    expect(compileFilters(parseFilters(text), columns).params).toEqual(['10', '20', '-1.5', '1e+21']);
  });

  it('keeps every digit of a whole-number filter, past 2^53 and past 64 bits', () => {
    const wide: ViewColumn[] = [
      { name: 'amount', type: 'uint256', index: 0 },
      { name: 'delta', type: 'int256', index: 1 },
      { name: 'id', type: 'bigint', index: 2 },
      { name: 'big', type: 'HUGEINT', index: 3 },
      { name: 'price', type: 'double', index: 4 },
    ];
    // whole numbers take the grid's BigInt filter, whose model holds the digits as typed
    expect(wide.map((c) => filterFor(kindOf(parseType(c.type))).filter)).toEqual([
      'agBigIntColumnFilter',
      'agBigIntColumnFilter',
      'agBigIntColumnFilter',
      'agBigIntColumnFilter',
      'agNumberColumnFilter',
    ]);
    const text = filtersParam(
      {
        c0: { filterType: 'bigint', type: 'greaterThan', filter: '9007199254740993' },
        c1: {
          filterType: 'bigint',
          type: 'inRange',
          filter: '-57896044618658097711785492504343953926634992332820282019728792003956564819968',
          filterTo: '-1',
        },
        c2: { filterType: 'bigint', type: 'equals', filter: '9223372036854775807' },
        c3: { filterType: 'bigint', type: 'lessThan', filter: '1 OR 1=1' },
      },
      new Map(wide.map((c) => [`c${c.index}`, c])),
    );
    expect(text).toBe(
      'amount > 9007199254740993 AND (delta >= -57896044618658097711785492504343953926634992332820282019728792003956564819968 AND delta <= -1) AND id = 9223372036854775807',
    );
    expect(compileFilters(parseFilters(text), wide).params).toEqual([
      '9007199254740993',
      '-57896044618658097711785492504343953926634992332820282019728792003956564819968',
      '-1',
      '9223372036854775807',
    ]);
  });

  it('reads a date as its whole day', () => {
    const text = filtersParam({ c1: { filterType: 'date', type: 'equals', dateFrom: '2024-02-29 00:00:00', dateTo: null } }, byId);
    expect(text).toBe(`("block time" >= '2024-02-29' AND "block time" < '2024-03-01')`);
    expect(() => parseFilters(text)).not.toThrow();
  });

  it('joins the typed filter and the column filters', () => {
    expect(combineFilters("chain = 'base' OR id = 1", 'id > 5')).toBe("(chain = 'base' OR id = 1) AND (id > 5)");
    expect(combineFilters('', 'id > 5')).toBe('id > 5');
  });
});

describe('the filter bar', () => {
  it('points at the mistake before anything is sent', () => {
    expect(checkFilters('id = = 5', columns)).toMatchObject({ position: 6 });
    expect(checkFilters('idd = 5', columns)).toMatchObject({ position: 1 });
    expect(checkFilters("chain = 'base'", columns)).toBeNull();
  });
});

describe('columns', () => {
  it('quotes only the names the list would split', () => {
    const text = columnsParam(['id', 'block time', 'say "hi", ok']);
    expect(text).toBe('id,block time,"say ""hi"", ok"');
    expect(selectColumns(parseColumns(text), columns).map((c) => c.name)).toEqual(['id', 'block time', 'say "hi", ok']);
  });
});

describe('copy', () => {
  it('writes TSV with the headers, quoting cells that hold tabs, newlines or quotes', () => {
    expect(
      toTsv(
        ['a', 'b'],
        [
          [1, null],
          ['x\ty', 'say "hi"'],
        ],
      ),
    ).toBe('a\tb\n1\t\n"x\ty"\t"say ""hi"""');
  });
});
