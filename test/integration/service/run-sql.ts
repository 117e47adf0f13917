import type { Harness, Json } from './service-harness.ts';

/** Request options that call as the owner of `key`. */
export const withApiKey = (key: string, extra: Record<string, string> = {}) => ({ headers: { 'x-dune-api-key': key, ...extra } });

/** Runs SQL with `key` through a new query: the rows when it completes, else its final status. */
export async function runSql(h: Harness, key: string, text: string): Promise<Json> {
  const created = await h.post('/api/v1/query', { name: 'probe', query_sql: text }, withApiKey(key));
  const run = await h.post(`/api/v1/query/${created.body.query_id}/execute`, undefined, withApiKey(key));
  return outcome(h, key, run.body.execution_id);
}

/** Runs SQL with `key` through `/sql/execute`, saving no query: as `runSql` answers. */
export async function executeSql(h: Harness, key: string, text: string): Promise<Json> {
  const run = await h.post('/api/v1/sql/execute', { sql: text }, withApiKey(key));
  if (run.status !== 200) throw new Error(`/sql/execute answered ${run.status}: ${JSON.stringify(run.body)}`);
  return outcome(h, key, run.body.execution_id);
}

async function outcome(h: Harness, key: string, executionId: string): Promise<Json> {
  const status = await h.waitUntilFinishedAs(executionId, key);
  if (status.state !== 'QUERY_STATE_COMPLETED') return status;
  return (await h.get(`/api/v1/execution/${executionId}/results`, withApiKey(key))).body.result.rows;
}
