import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { withApiKey } from '../run-sql.ts';
import { startHarness, type Harness } from '../service-harness.ts';

// Where the service must not differ from the interface: a sample never loses rows silently, and two
// writes to one table or query at the same time end as one order or the other, never as a 500.

const MAX_PAGE_ROWS = 1000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS, maxPageRows: MAX_PAGE_ROWS });
});
afterAll(() => h.stop());

const alice = (extra: Record<string, string> = {}) => withApiKey(KEYS.alice, extra);

async function runToCompletion(sql: string): Promise<string> {
  const created = await h.post('/api/v1/query', { name: `rows ${sql.length}`, query_sql: sql }, alice());
  const started = await h.post(`/api/v1/query/${created.body.query_id}/execute`, {}, alice());
  const executionId = started.body.execution_id as string;
  await h.waitUntilFinishedAs(executionId, KEYS.alice);
  return executionId;
}

describe('sample_count', () => {
  let big: string;
  let small: string;
  beforeAll(async () => {
    big = await runToCompletion('SELECT range AS n FROM range(10000)');
    small = await runToCompletion('SELECT range AS n FROM range(800)');
  });

  it('refuses, naming the bound, a sample larger than one response may hold, in JSON and CSV', async () => {
    for (const format of ['results', 'results/csv']) {
      const answer = await h.get(`/api/v1/execution/${big}/${format}?sample_count=30000`, alice());
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain(`limit of ${MAX_PAGE_ROWS} rows`);
      expect(answer.body.error).toContain('sample_count 30000');
    }
  });

  it('returns the whole result when it has fewer rows than sample_count, even past the page size asked for', async () => {
    const answer = await h.get(`/api/v1/execution/${small}/results?sample_count=30000`, alice());
    expect(answer.status).toBe(200);
    expect(answer.body.result.rows).toHaveLength(800);
    expect(answer.body.next_offset).toBeUndefined();
    const csv = await fetch(`${h.service.baseUrl}/api/v1/execution/${small}/results/csv?sample_count=30000`, alice());
    expect((await csv.text()).trimEnd().split('\n')).toHaveLength(801);
  });

  it('draws at most sample_count rows of a larger result', async () => {
    const answer = await h.get(`/api/v1/execution/${big}/results?sample_count=500`, alice());
    expect(answer.status).toBe(200);
    expect(answer.body.result.rows.length).toBeGreaterThan(0);
    expect(answer.body.result.rows.length).toBeLessThanOrEqual(500);
  });
});

describe('two writes to one table or query at once', () => {
  const ROUNDS = 12;
  const del = (table: string) => h.post(`/api/v1/table/alice/${table}`, undefined, { ...alice(), method: 'DELETE' });
  const upload = (table: string, data: string) => h.post('/api/v1/table/upload/csv', { table_name: table, data }, alice());
  const insert = (table: string) =>
    h.post(`/api/v1/table/alice/dataset_${table}/insert`, undefined, { ...alice({ 'content-type': 'text/csv' }), body: 'a\n9\n' });
  const exists = async (table: string) =>
    ((await h.get('/api/v1/tables?limit=1000', alice())).body.tables as { full_name: string }[]).some(
      (t) => t.full_name === `dune.alice.dataset_${table}`,
    );

  it('delete and delete: one deletes, the other finds nothing (404)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expect((await upload('twice', 'a\n1\n')).status).toBe(200);
      const answers = await Promise.all([del('dataset_twice'), del('dataset_twice')]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
      expect(answers.find((a) => a.status === 404)?.body.error).toContain('not found');
      expect(await exists('twice')).toBe(false);
    }
  });

  it('delete and insert: either order, never a 500, and the table is gone after', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expect((await upload('racing', 'a\n1\n')).status).toBe(200);
      const [deleted, inserted] = await Promise.all([del('dataset_racing'), insert('racing')]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(inserted.status);
      expect(await exists('racing')).toBe(false);
    }
  });

  it('delete and replace by upload: either order, never a 500, and the state is one of the two', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expect((await upload('swapped', 'a\n1\n')).status).toBe(200);
      const [deleted, replaced] = await Promise.all([del('dataset_swapped'), upload('swapped', 'b\n2\n')]);
      expect([200, 404]).toContain(deleted.status);
      expect([200, 404]).toContain(replaced.status);
      // Deleted last: gone. Replaced last: there, with the new column.
      if (await exists('swapped')) {
        const tables = (await h.get('/api/v1/tables?limit=1000', alice())).body.tables as {
          full_name: string;
          columns: { name: string }[];
        }[];
        expect(tables.find((t) => t.full_name === 'dune.alice.dataset_swapped')?.columns.map((c) => c.name)).toEqual(['b']);
        expect((await del('dataset_swapped')).status).toBe(200);
      }
    }
  });

  it('PATCH and archive of one query: either order, never a 500, and it ends archived', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await h.post('/api/v1/query', { name: `both ${round}`, query_sql: 'SELECT 1' }, alice());
      const id = created.body.query_id as number;
      const [patched, archived] = await Promise.all([
        h.post(`/api/v1/query/${id}`, { query_sql: 'SELECT 2' }, { ...alice(), method: 'PATCH' }),
        h.post(`/api/v1/query/${id}/archive`, undefined, alice()),
      ]);
      expect(archived.status).toBe(200);
      expect([200, 403]).toContain(patched.status);
      const after = await h.get(`/api/v1/query/${id}`, alice());
      expect(after.body.is_archived).toBe(true);
      expect(after.body.query_sql).toBe(patched.status === 200 ? 'SELECT 2' : 'SELECT 1');
    }
  });
});
