import type { ExecutionStatus, ServiceClient } from '../main/core/service-client/index.ts';

/** Asks the service for the execution's status every `everyMs` until it has finished, and answers that status. */
export async function finishedStatus(client: ServiceClient, executionId: string, everyMs = 200): Promise<ExecutionStatus> {
  for (;;) {
    const status = await client.executions.status(executionId);
    if (status.ok && status.data.isExecutionFinished) return status.data;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
