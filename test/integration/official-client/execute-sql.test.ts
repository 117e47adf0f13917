import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../service/accounts-fixture.ts';
import { withApiKey } from '../service/run-sql.ts';
import { startClientHarness, type ClientHarness } from './client-harness.ts';

// `POST /sql/execute` runs SQL text without a stored query, through the official client's
// `exec.executeSql`; the run is its starter's alone.

let h: ClientHarness;
beforeAll(async () => {
  h = await startClientHarness();
  const upload = await h.post(
    '/api/v1/table/upload/csv',
    { table_name: 'notes', data: 'note\nmine only\n', is_private: true },
    withApiKey(KEYS.acme),
  );
  expect(upload.status).toBe(200);
});
afterAll(() => h.stop());

describe('POST /sql/execute', () => {
  it("runs SQL text with the caller's own private tables; status and results read as for a query run, with no query id", async () => {
    const acme = h.client(KEYS.acme);
    const started = await acme.exec.executeSql({ sql: 'select note, 40 + 2 as n from dune.acme.dataset_notes' });
    expect(started.state).toBe('QUERY_STATE_PENDING');
    const status = await h.waitUntilFinishedAs(started.execution_id, KEYS.acme);
    expect(status.state).toBe('QUERY_STATE_COMPLETED');
    expect(status.query_id).toBeNull();
    const results = await acme.exec.getExecutionResults(started.execution_id);
    expect(results.result!.rows).toEqual([{ note: 'mine only', n: 42 }]);
  });

  it("is another context's to read not at all: 404, whatever it read", async () => {
    const run = await h.post('/api/v1/sql/execute', { sql: 'select 1 as one' }, withApiKey(KEYS.acme));
    await h.waitUntilFinishedAs(run.body.execution_id, KEYS.acme);
    for (const path of ['status', 'results', 'results/csv']) {
      const other = await h.get(`/api/v1/execution/${run.body.execution_id}/${path}`, withApiKey(KEYS.alice));
      expect(other.status, path).toBe(404);
    }
  });

  it('reports SQL errors with their position, and refuses what it cannot run with a 400 saying why', async () => {
    const run = await h.post('/api/v1/sql/execute', { sql: 'select 1,\n  nope from range(2)' }, withApiKey(KEYS.alice));
    const status = await h.waitUntilFinishedAs(run.body.execution_id, KEYS.alice);
    expect(status.state).toBe('QUERY_STATE_FAILED');
    expect(status.error.metadata).toEqual({ line: 2, column: 3 });

    const refusals: [unknown, RegExp][] = [
      [{}, /sql must hold the SQL text to run/],
      [{ sql: '   ' }, /sql must hold the SQL text to run/],
      [{ sql: 'select {{x}}', query_parameters: { x: 1 } }, /takes no query_parameters/],
      [{ sql: 'select 1', performance: 'huge' }, /performance must be one of medium, large/],
    ];
    for (const [body, message] of refusals) {
      const answer = await h.post('/api/v1/sql/execute', body, withApiKey(KEYS.alice));
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatch(message);
    }
  });

  it('refuses statements that write, as execute does', async () => {
    const run = await h.post('/api/v1/sql/execute', { sql: 'create table t as select 1' }, withApiKey(KEYS.alice));
    const status = await h.waitUntilFinishedAs(run.body.execution_id, KEYS.alice);
    expect(status.state).toBe('QUERY_STATE_FAILED');
    expect(status.error.message).toMatch(/only queries that read data/);
  });
});
