import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fail } from '../../../../main/contract/index.ts';
import { LISTED_ROWS } from '../../../../main/core/compare/compare-runs.ts';
import { expectWellSaid } from '../../words/read-words.ts';
import { startCacheHarness, type CacheHarness } from '../cache/cache-harness.ts';

// Two runs compared in the cache, against the same rows worked out here: run B drops ids 0-4,
// adds 1000-1004, changes v on every hundredth id (and v's type), drops grp and adds extra.

const SQL_A = "SELECT range AS id, range * 10 AS v, 'x' || range AS label, range % 3 AS grp FROM range(1000)";
const SQL_B =
  "SELECT range AS id, (CASE WHEN range % 100 = 0 THEN range * 10 + 1 ELSE range * 10 END)::DOUBLE AS v, 'x' || range AS label, range::DOUBLE / 2 AS extra FROM range(5, 1005)";

const idsA = Array.from({ length: 1000 }, (_, i) => i);
const idsB = Array.from({ length: 1000 }, (_, i) => i + 5);
const changedIds = idsA.filter((id) => idsB.includes(id) && id % 100 === 0);

let harness: CacheHarness;
let a: string;
let b: string;
let uncached: string;

beforeAll(async () => {
  harness = await startCacheHarness();
  a = await harness.runSql(SQL_A);
  b = await harness.runSql(SQL_B);
  uncached = await harness.runSql(SQL_B);
  for (const id of [a, b]) expect(await harness.cacheWhole(id)).toMatchObject({ state: 'cached' });
});
afterAll(async () => harness?.close());

const compare = (key?: string, second = b) =>
  harness.call('results:compare', { accountId: 'local', a, b: second, ...(key ? { key } : {}) });

describe('two runs compared', () => {
  it('gives the sizes and the columns each has, and the types that changed', async () => {
    const answer = await compare();
    expect(answer).toMatchObject({
      ok: true,
      data: {
        rowCount: { a: idsA.length, b: idsB.length },
        columns: {
          onlyInA: [{ name: 'grp' }],
          onlyInB: [{ name: 'extra' }],
          retyped: [{ name: 'v', a: 'bigint', b: 'double' }],
          common: ['id', 'v', 'label'],
        },
        byKey: null,
      },
    });
  });

  it('by a key: rows only in A, only in B, changed with their cells, and the same', async () => {
    const answer = await compare('id');
    if (!answer.ok) throw new Error(answer.error.message);
    const byKey = answer.data.byKey!;
    const onlyA = idsA.filter((id) => !idsB.includes(id));
    const onlyB = idsB.filter((id) => !idsA.includes(id));
    expect(byKey).toMatchObject({ key: 'id', onlyInA: onlyA.length, onlyInB: onlyB.length, changed: changedIds.length });
    expect(byKey.same).toBe(idsA.length - onlyA.length - changedIds.length);
    expect(byKey.rows.map((row) => [row.kind, row.key])).toEqual(
      [...onlyA.map((id) => ['onlyA', id]), ...changedIds.map((id) => ['changed', id]), ...onlyB.map((id) => ['onlyB', id])].sort(
        (x, y) => Number(x[1]) - Number(y[1]),
      ),
    );
    const hundred = byKey.rows.find((row) => row.key === 100)!;
    expect(hundred.differences).toEqual([{ column: 'v', a: 1000, b: 1001 }]);
    expect(byKey.rows.length).toBeLessThanOrEqual(LISTED_ROWS);
  });

  it('refuses a key that repeats or that one run lacks, and runs not in the cache', async () => {
    const itself = await compare('label', a);
    expect(itself).toMatchObject({ ok: true, data: { byKey: { same: idsA.length, changed: 0, onlyInA: 0, onlyInB: 0, rows: [] } } });
    const grp = await harness.call('results:compare', { accountId: 'local', a, b: a, key: 'grp' });
    expect(grp).toMatchObject({ ok: false, error: { code: 'bad_request', details: { duplicatedKeys: { a: 3, b: 3 } } } });
    const lacking = await compare('grp');
    expect(lacking).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('both runs') } });
    const notCached = await compare(undefined, uncached);
    expect(notCached).toMatchObject({ ok: false, error: { code: 'not_found', details: { notCached: [uncached] } } });
    for (const refused of [grp, lacking, notCached])
      expectWellSaid(refused.ok ? fail('internal', 'expected a refusal').error : refused.error);
  });
});
