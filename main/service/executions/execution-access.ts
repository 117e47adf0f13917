import type { ServiceAccount } from '../accounts/account-store.ts';
import { badRequest, notFound } from '../http/http-error.ts';
import { isExecutionId } from '../ids.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { Execution } from './execution-store.ts';
import { expireIfDue } from './expiry.ts';

/**
 * The execution, when the caller ran it or its query is public. An unknown id is the real
 * service's 400; an execution of another context's private query is 404, like the query itself,
 * and so is another context's run of SQL text, which read that context's private tables.
 */
export async function readableExecution(deps: ServiceDeps, account: ServiceAccount, id: string): Promise<Execution> {
  const { executions, queries, results } = deps;
  const execution = isExecutionId(id) ? await executions.get(id) : null;
  if (!execution) throw badRequest(`The requested execution ID (ID: ${id}) is invalid.`);
  if (execution.accountId !== account.id) {
    const query = execution.queryId === null ? null : await queries.get(execution.queryId);
    if (!query || query.isPrivate) throw notFound('not found: Query not found or private');
  }
  return expireIfDue(execution, executions, results);
}
