import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRequest, PivotTable } from '../../../../main/contract/index.ts';
import { equalsCondition, withinCondition } from '../../../../main/filter-language/index.ts';
import { startCacheHarness, type CacheHarness } from '../cache/cache-harness.ts';

// Pivots computed by DuckDB on a real cached result, whose rows are made so that every group's
// figures can be worked out here: subtotals and the grand total, the split's most frequent values
// and Other, time groups, the view's filter before grouping, drill-down conditions, and refusals.

const ROWS = 30_000;
const SQL = `SELECT i, ['a', 'b', 'c', NULL][1 + i % 4] AS chain, 'w' || (i % 7) AS wallet,
  ((i % 10) + 0.25)::DECIMAL(10, 2) AS amount, TIMESTAMP '2024-01-01' + to_minutes(i * 5) AS t,
  [i, i + 1] AS pair, i::UHUGEINT * 100000000000000000000::UHUGEINT AS huge
FROM range(${ROWS}) AS t(i)`;

let harness: CacheHarness;
let executionId: string;

beforeAll(async () => {
  harness = await startCacheHarness();
  executionId = await harness.runSql(SQL);
  expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', totalRowCount: ROWS });
}, 60_000);
afterAll(async () => harness?.close());

type Settings = Omit<ChannelRequest<'results:pivot'>, 'accountId' | 'executionId'>;

async function pivot(settings: Settings): Promise<PivotTable> {
  const answer = await harness.call('results:pivot', { accountId: 'local', executionId, ...settings });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data;
}

const rowsOf = (predicate: (i: number) => boolean) => Array.from({ length: ROWS }, (_, i) => i).filter(predicate);
const chainOf = (i: number) => ['a', 'b', 'c', null][i % 4];
const amountOf = (i: number) => (i % 10) + 0.25;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function filteredCount(filters: string): Promise<number> {
  const page = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 1, filters });
  if (!page.ok) throw new Error(page.error.message);
  return page.data.totalRowCount;
}

describe('a pivot by two columns with three measures', () => {
  it('gives every group, subtotal and the grand total in tree order, siblings by the sorted measure', async () => {
    const table = await pivot({
      rows: [{ column: 'chain' }, { column: 'wallet' }],
      measures: [{ fn: 'count' }, { fn: 'sum', column: 'amount' }, { fn: 'count_distinct', column: 'wallet' }],
      sort: { measure: 1, direction: 'desc' },
    });
    expect(table.measures.map((m) => m.label)).toEqual(['Count', 'Sum of amount', 'Distinct of wallet']);
    expect(table.groups).toHaveLength(1 + 4 + 4 * 7);
    expect(table.truncated).toBeNull();
    const [total, ...groups] = table.groups;
    expect(total!.key).toEqual([]);
    expect(total!.cells).toEqual([[ROWS, sum(rowsOf(() => true).map(amountOf)), 7]]);
    for (const group of groups) {
      const [chain, wallet] = group.key;
      const rows = rowsOf((i) => chainOf(i) === chain && (wallet === undefined || `w${i % 7}` === wallet));
      expect(group.rows).toBe(rows.length);
      expect(group.cells[0]).toEqual([rows.length, sum(rows.map(amountOf)), new Set(rows.map((i) => i % 7)).size]);
    }
    // each chain is followed by its wallets, largest sum first; the chains too are by their sums
    const chains = groups.filter((g) => g.key.length === 1);
    expect(chains.map((g) => Number(g.cells[0]![1]))).toEqual([...chains.map((g) => Number(g.cells[0]![1]))].sort((a, b) => b - a));
    for (const chain of chains) {
      const at = groups.indexOf(chain);
      const wallets = groups.slice(at + 1, at + 8);
      expect(wallets.every((w) => w.key[0] === chain.key[0] && w.key.length === 2)).toBe(true);
      const sums = wallets.map((w) => Number(w.cells[0]![1]));
      expect(sums).toEqual([...sums].sort((a, b) => b - a));
    }
  });

  it('gives the same figures from the leaf groups as from the rows', async () => {
    const measures: Settings['measures'] = [
      { fn: 'count' },
      { fn: 'sum', column: 'amount' },
      { fn: 'avg', column: 'amount' },
      { fn: 'max', column: 't' },
    ];
    const settings: Settings = { rows: [{ column: 'chain' }, { column: 'wallet' }], split: { column: 'i', top: 2 }, measures };
    const fromLeaves = await pivot(settings);
    // a distinct count is made from the rows only, and with it every measure is
    const fromRows = await pivot({ ...settings, measures: [...measures, { fn: 'count_distinct', column: 'i' }] });
    // the same groups and figures; an average from the rows sums doubles, from the leaves the exact decimals
    const exact = (table: PivotTable) => table.groups.map((g) => [g.key, g.cells.map(([count, total, , max]) => [count, total, max])]);
    expect(exact(fromRows)).toEqual(exact(fromLeaves));
    fromRows.groups.forEach((g, i) =>
      g.cells.forEach((cells, b) => expect(cells[2]).toBeCloseTo(fromLeaves.groups[i]!.cells[b]![2] as number, 9)),
    );
    const a = fromLeaves.groups.find((g) => g.key.length === 1 && g.key[0] === 'a')!;
    const rows = rowsOf((i) => i % 4 === 0);
    expect(a.cells[0]![2]).toBeCloseTo(sum(rows.map(amountOf)) / rows.length, 9);
  });

  it('applies the view filter before grouping', async () => {
    const table = await pivot({ rows: [{ column: 'wallet' }], measures: [{ fn: 'count' }], filters: "chain = 'a'" });
    expect(table.groups[0]!.rows).toBe(ROWS / 4);
    expect(table.groups.slice(1).map((g) => g.key[0])).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6']);
  });
});

describe("a pivot's split", () => {
  it('has the most frequent values first and the rest as Other, each bucket adding up to the total', async () => {
    const table = await pivot({
      rows: [{ column: 'chain' }],
      split: { column: 'wallet', top: 3 },
      measures: [{ fn: 'count' }, { fn: 'min', column: 'i' }],
    });
    // w0 to w5 each hold one row more than w6 (30,000 = 7 x 4,285 + 5); ties go by value
    expect(table.split).toMatchObject({ name: 'wallet', values: ['w0', 'w1', 'w2'], other: 4 });
    for (const group of table.groups) {
      expect(group.cells).toHaveLength(1 + 3 + 1);
      const counts = group.cells.map((cells) => Number(cells[0] ?? 0));
      expect(sum(counts.slice(1))).toBe(counts[0]);
    }
    const a = table.groups.find((g) => g.key[0] === 'a')!;
    expect(a.cells[1]).toEqual([rowsOf((i) => i % 4 === 0 && i % 7 === 0).length, 0]);
    expect(a.cells[4]![1]).toBe(Math.min(...rowsOf((i) => i % 4 === 0 && i % 7 > 2)));
  });
});

describe('time groups and drill-down', () => {
  it('groups a time column by day, and each group drills down to exactly its rows', async () => {
    const table = await pivot({ rows: [{ column: 't', grain: 'day' }], measures: [{ fn: 'count' }] });
    const days = table.groups.slice(1);
    // a row every 5 minutes: 288 a day
    expect(days[0]).toMatchObject({ key: ['2024-01-01 00:00:00.000 UTC'], rows: 288 });
    expect(days).toHaveLength(Math.ceil(ROWS / 288));
    for (const day of [days[0]!, days[50]!, days.at(-1)!]) {
      expect(await filteredCount(withinCondition('t', day.key[0] as string, 'day')!)).toBe(day.rows);
    }
  });

  it('drills down into groups of nulls and of text by their values', async () => {
    const table = await pivot({ rows: [{ column: 'chain' }, { column: 'wallet' }], measures: [{ fn: 'count' }] });
    const group = table.groups.find((g) => g.key[0] === null && g.key[1] === 'w3')!;
    const condition = [equalsCondition('chain', 'varchar', null), equalsCondition('wallet', 'varchar', 'w3')].join(' and ');
    expect(await filteredCount(condition)).toBe(group.rows);
    expect(group.rows).toBe(rowsOf((i) => i % 4 === 3 && i % 7 === 3).length);
  });
});

describe('what a pivot says of itself', () => {
  it('marks a sum of 256-bit integers past 2^53 as estimated', async () => {
    const table = await pivot({ rows: [{ column: 'chain' }], measures: [{ fn: 'sum', column: 'huge' }, { fn: 'count' }] });
    expect(table.inexact).toEqual(['Sum of huge']);
  });

  it('sends the best-ranked groups of the deepest level past 20,000 groups, and says how many there are', async () => {
    const table = await pivot({ rows: [{ column: 'i' }], measures: [{ fn: 'count' }] });
    expect(table.truncated).toEqual({ shown: 20_000, total: ROWS + 1 });
    expect(table.groups[0]!.rows).toBe(ROWS);
    expect(table.groups.slice(1, 4).map((g) => g.key[0])).toEqual([0, 1, 2]);
  });

  it('cut at the deepest level, keeps the best children of every parent, not all of the first ones', async () => {
    const table = await pivot({
      rows: [{ column: 'chain' }, { column: 'i' }],
      measures: [{ fn: 'count' }],
      sort: { measure: 0, direction: 'asc' },
    });
    expect(table.truncated).toEqual({ shown: 20_000, total: ROWS + 5 });
    const shown = table.groups.filter((g) => g.key.length === 2);
    const perChain = ['a', 'b', 'c', null].map((chain) => shown.filter((g) => g.key[0] === chain).map((g) => g.key[1] as number));
    // 19,995 children over four parents; each parent's smallest values first, its own rank order
    expect(perChain.map((children) => children.length).sort()).toEqual([4998, 4999, 4999, 4999]);
    perChain.forEach((children, c) => expect(children.slice(0, 3)).toEqual([c, c + 4, c + 8]));
  });

  it.each([
    [
      { rows: [{ column: 'pair' }], measures: [{ fn: 'count' }] },
      /row group 1: pair holds .* values, which a pivot cannot group or measure/,
    ],
    [
      { rows: [{ column: 'chain' }], measures: [{ fn: 'sum', column: 'wallet' }] },
      /measure 1 \(sum\): wallet holds .* values, not numbers/,
    ],
    [{ rows: [{ column: 'wallet', grain: 'day' }], measures: [{ fn: 'count' }] }, /row group 1: wallet holds .* values, not times/],
    [{ rows: [{ column: 'nope' }], measures: [{ fn: 'count' }] }, /row group 1: the result has no column named "nope"/],
  ] as [Settings, RegExp][])('refuses %j with the reason', async (settings, reason) => {
    const answer = await harness.call('results:pivot', { accountId: 'local', executionId, ...settings });
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.code).toBe('bad_request');
      expect(answer.error.message).toMatch(reason);
    }
  });
});
