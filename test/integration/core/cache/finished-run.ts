import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import type { RunningService } from '../../../../main/service/index.ts';

/** Runs the demo account's query of that name on the service and answers its execution once finished. */
export async function finishedRun(service: RunningService, queryName: string): Promise<string> {
  const client = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
  const listed = await client.queries.list();
  const query = listed.ok ? listed.data.queries.find((q) => q.name === queryName) : undefined;
  const started = await client.executions.execute({ queryId: query?.id ?? 0 });
  if (!started.ok) throw new Error(started.error.message);
  for (;;) {
    const status = await client.executions.status(started.data.executionId);
    if (status.ok && status.data.isExecutionFinished) return started.data.executionId;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
