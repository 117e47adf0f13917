import type { ServiceAccount } from '../accounts/account-store.ts';
import { readableExecution } from '../executions/execution-access.ts';
import { STATE } from '../executions/execution-store.ts';
import { statusBody } from '../executions/present-execution.ts';
import { WaitingBound } from '../executions/waiting-bound.ts';
import { badRequest, HttpError } from '../http/http-error.ts';
import { parseJsonObject, readBody } from '../http/request-body.ts';
import type { Router } from '../http/router.ts';
import { newExecutionId } from '../ids.ts';
import { readableQuery } from '../queries/query-access.ts';
import { ParameterError, resolveParameters, substitute } from '../queries/template.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../time.ts';

const PERFORMANCE = ['medium', 'large'];
const MAX_EXECUTE_BODY = 1024 * 1024;

/**
 * An execute option as the request gave it: in the body, or in the query string, where OAS
 * documents `performance` and `query_parameters` too (notes §2); the body wins when both say it.
 * `where` names the place for the error that refuses it.
 */
function optionOf(body: Record<string, unknown>, url: URL, name: string): { value: unknown; where: string } {
  if (Object.hasOwn(body, name)) return { value: body[name], where: '' };
  const given = url.searchParams.getAll(name);
  if (given.length > 1) throw badRequest(`${name} is given ${given.length} times in the query string: give it once`);
  return { value: given[0], where: ' in the query string' };
}

function performanceOf(body: Record<string, unknown>, url: URL): string {
  const { value, where } = optionOf(body, url, 'performance');
  const performance = value ?? 'medium';
  if (typeof performance !== 'string' || !PERFORMANCE.includes(performance)) {
    throw badRequest(`performance${where} must be one of ${PERFORMANCE.join(', ')}`);
  }
  return performance;
}

/** The `query_parameters` given (decoded from JSON when in the query string); undefined when none. */
function parametersOf(body: Record<string, unknown>, url: URL): { value: unknown; where: string } {
  const option = optionOf(body, url, 'query_parameters');
  if (option.where === '' || option.value === undefined) return option;
  try {
    return { value: JSON.parse(option.value as string), where: option.where };
  } catch (error) {
    throw badRequest(`query_parameters${option.where} must be a JSON object of parameter names to values: ${(error as Error).message}`);
  }
}

function executeRequest(body: Record<string, unknown>, url: URL) {
  const { value, where } = parametersOf(body, url);
  const given = value ?? {};
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw badRequest(`query_parameters${where} must be an object of parameter names to values`);
  }
  return { given: given as Record<string, unknown>, performance: performanceOf(body, url) };
}

/** `POST /sql/execute`: SQL text, run as it is (the real service takes no parameters there). */
function sqlRequest(body: Record<string, unknown>, url: URL) {
  if (typeof body.sql !== 'string' || body.sql.trim() === '') throw badRequest('sql must hold the SQL text to run');
  if (parametersOf(body, url).value !== undefined) {
    throw badRequest('/sql/execute takes no query_parameters: put the values in the SQL');
  }
  return { sql: body.sql, performance: performanceOf(body, url) };
}

export function addExecutionRoutes(router: Router<ServiceAccount>, deps: ServiceDeps): void {
  const { queries, executions, executor, config } = deps;
  const waiting = new WaitingBound(executor, config.waitingExecutions);

  router.add('POST', '/api/v1/query/:id/execute', async ({ request, url, params, caller }) => {
    const query = await readableQuery(queries, caller, params.id!);
    if (query.isArchived) {
      throw new HttpError(403, 'Not allowed to execute query. Query is archived, unsaved or not enough permissions');
    }
    const { given, performance } = executeRequest(parseJsonObject(await readBody(request, MAX_EXECUTE_BODY, config.bodyIdleMillis)), url);
    let values: Record<string, string>;
    try {
      values = resolveParameters(query.sql, query.parameters, given);
    } catch (error) {
      if (error instanceof ParameterError) throw badRequest(error.message);
      throw error;
    }
    const id = newExecutionId();
    await waiting.admit(caller.id, async () => {
      await executions.insert({
        id,
        queryId: query.id,
        queryVersion: query.version,
        accountId: caller.id,
        parameters: values,
        performance,
        submittedAt: nowIso(),
      });
      // Another context's query runs on public tables only: its results are readable by whoever may
      // read the query, so the starter's private tables must not reach them.
      const privateTablesOf = query.ownerId === caller.id ? caller.id : null;
      executor.submit({ executionId: id, accountId: caller.id, plan: caller.plan, privateTablesOf, sql: substitute(query.sql, values) });
    });
    return { json: { execution_id: id, state: STATE.pending } };
  });

  // Runs with the caller's own tables, as a query of its own does; its results are the caller's only.
  router.add('POST', '/api/v1/sql/execute', async ({ request, url, caller }) => {
    const { sql, performance } = sqlRequest(parseJsonObject(await readBody(request, MAX_EXECUTE_BODY, config.bodyIdleMillis)), url);
    const id = newExecutionId();
    await waiting.admit(caller.id, async () => {
      await executions.insert({ id, queryId: null, accountId: caller.id, parameters: {}, performance, submittedAt: nowIso() });
      executor.submit({ executionId: id, accountId: caller.id, plan: caller.plan, privateTablesOf: caller.id, sql });
    });
    return { json: { execution_id: id, state: STATE.pending } };
  });

  router.add('GET', '/api/v1/execution/:id/status', async ({ params, caller }) => {
    const execution = await readableExecution(deps, caller, params.id!);
    // the reader's own slots: how busy the context that started it is, is not another's to see
    const slots = { total: config.executionSlots, busy: executor.busySlots(caller.id) };
    return { json: statusBody(execution, executor.queuePosition(execution.id), slots) };
  });

  router.add('POST', '/api/v1/execution/:id/cancel', async ({ params, caller }) => {
    const execution = await readableExecution(deps, caller, params.id!);
    if (execution.accountId !== caller.id) throw new HttpError(403, 'only the context that started an execution can cancel it');
    return { json: { success: await executor.cancel(execution.id) } };
  });
}
