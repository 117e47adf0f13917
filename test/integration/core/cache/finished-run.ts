import { finishedStatus } from '../../../../bench/finished-execution.ts';
import { createServiceClient, type ServiceClient } from '../../../../main/core/service-client/index.ts';
import type { RunningService } from '../../../../main/service/index.ts';

function demoClient(service: RunningService): ServiceClient {
  return createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
}

/** Waits for the execution `started` gave to finish, and answers its id. */
async function finished(client: ServiceClient, started: Awaited<ReturnType<ServiceClient['executions']['execute']>>): Promise<string> {
  if (!started.ok) throw new Error(started.error.message);
  await finishedStatus(client, started.data.executionId, 20);
  return started.data.executionId;
}

/** Runs the demo account's query of that name on the service and answers its execution once finished. */
export async function finishedRun(service: RunningService, queryName: string): Promise<string> {
  const client = demoClient(service);
  const listed = await client.queries.list();
  const query = listed.ok ? listed.data.queries.find((q) => q.name === queryName) : undefined;
  return finished(client, await client.executions.execute({ queryId: query?.id ?? 0 }));
}

/** Runs `sql` as the demo account and answers its execution once finished. */
export async function finishedSql(service: RunningService, sql: string): Promise<string> {
  const client = demoClient(service);
  return finished(client, await client.executions.executeSql({ sql }));
}
