import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../service-harness.ts';

// A filter whose operator or value cannot apply to its column's type is the client's mistake: a 400
// that shows the condition, never a 500.

let h: Harness;
let executionId: string;
beforeAll(async () => {
  h = await startHarness();
  const created = await h.post('/api/v1/query', {
    name: 'typed',
    query_sql:
      "SELECT '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID AS id, 1 AS n, [1, 2] AS list, {'a': 1} AS record, true AS flag, 0.13::DECIMAL(6,2) AS fee",
  });
  executionId = await h.execute(created.body.query_id, {});
  await h.waitUntilFinished(executionId);
});
afterAll(() => h.stop());

const filtered = (filters: string) => h.get(`/api/v1/execution/${executionId}/results?filters=${encodeURIComponent(filters)}`);

describe('filters by column type', () => {
  it('compares a UUID column as the text it shows, with any operator', async () => {
    expect((await filtered("id < 'a'")).body.result.rows).toHaveLength(1);
    expect((await filtered("id > 'a'")).body.result.rows).toHaveLength(0);
    expect((await filtered("id = '6ba7b810-9dad-11d1-80b4-00c04fd430c8'")).body.result.rows).toHaveLength(1);
  });

  it('compares a decimal column with a number of more digits after its point exactly', async () => {
    expect((await filtered('fee > 0.125')).body.result.rows).toHaveLength(1);
    expect((await filtered('fee <= 0.129')).body.result.rows).toHaveLength(0);
    expect((await filtered('fee = 0.125')).body.result.rows).toHaveLength(0);
    expect((await filtered('fee = 0.1300')).body.result.rows).toHaveLength(1);
  });

  it('answers 400 naming the column, its type and the value at its position', async () => {
    const cases: [string, RegExp][] = [
      ["n > 'abc'", /^filters: n holds numbers \(integer\); 'abc' is not a number at position 5$/],
      ['list > 1', /^filters: list is of type integer\[\], which compares with no single value; .* at position 8$/],
      ['record = 2', /^filters: record is of type struct\("a" integer\), .* at position 10$/],
      ["flag < 'x'", /^filters: flag holds true or false \(boolean\); 'x' is neither at position 8$/],
      ['n > 1e5000', /^filters: n holds numbers \(integer\); '1e5000' has too many digits to compare exactly at position 5$/],
    ];
    for (const [condition, message] of cases) {
      const answer = await filtered(condition);
      expect(answer.status, condition).toBe(400);
      expect(answer.body.error, condition).toMatch(message);
    }
  });
});
