import type { Harness, Json } from './service-harness.ts';

/** Request options that call as the owner of `key`. */
export const withApiKey = (key: string, extra: Record<string, string> = {}) => ({ headers: { 'x-dune-api-key': key, ...extra } });

/** Runs SQL with `key` through a new query: the rows when it completes, else its final status. */
export async function runSql(h: Harness, key: string, text: string): Promise<Json> {
  const created = await h.post('/api/v1/query', { name: 'probe', query_sql: text }, withApiKey(key));
  const run = await h.post(`/api/v1/query/${created.body.query_id}/execute`, undefined, withApiKey(key));
  const status = await h.waitUntilFinishedAs(run.body.execution_id, key);
  if (status.state !== 'QUERY_STATE_COMPLETED') return status;
  return (await h.get(`/api/v1/execution/${run.body.execution_id}/results`, withApiKey(key))).body.result.rows;
}
