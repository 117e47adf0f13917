import type { ExecutionUpdate, ParameterValues } from '../../contract/index.ts';
import { toExecutionUpdate } from '../executions/snapshot.ts';
import type { ServiceClient } from '../service-client/index.ts';

/**
 * The service's latest finished result of the query (`GET /query/{id}/results`), with `parameters`
 * for that of a run with exactly those values; null when there is none, or the service cannot say.
 */
export async function serviceLatest(
  client: ServiceClient,
  accountId: string,
  queryId: number,
  parameters?: ParameterValues,
): Promise<ExecutionUpdate | null> {
  const values = parameters === undefined ? {} : textValues(parameters);
  // a multi-select's list has no form as a `params.` option: no latest is known to match it
  if (values === null) return null;
  // a truncated latest result is still the latest: refused, it would read as none (it is shown as partial)
  const latest = await client.results.latest(queryId, { parameters: values, allowPartialResults: true });
  if (!latest.ok || latest.data.metadata === null) return null;
  const execution = toExecutionUpdate(accountId, { ...latest.data, queuePosition: null, resultMetadata: latest.data.metadata }, 0);
  return execution.isFinished && execution.result !== null ? execution : null;
}

function textValues(parameters: ParameterValues): Record<string, string> | null {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (Array.isArray(value)) return null;
    values[name] = value;
  }
  return values;
}
