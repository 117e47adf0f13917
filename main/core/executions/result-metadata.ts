import { hasResult } from '../../common/dune-states.ts';
import type { ExecutionStatus, ServiceClient } from '../service-client/index.ts';

// Dune's status carries `result_metadata` only when COMPLETED: a truncated (COMPLETED_PARTIAL)
// result's status comes without it, and a service may leave it out of a completed one too. The
// first row's page carries the same metadata. Reading it must allow a partial result, which Dune
// refuses without the flag: the run would then seem to have no result at all. No row is shown
// from it, so whether to show a partial result is still the user's choice.

export async function withResultMetadata(client: ServiceClient, status: ExecutionStatus, signal?: AbortSignal): Promise<ExecutionStatus> {
  if (!hasResult(status.state) || status.resultMetadata !== null) return status;
  const page = await client.results.page({ executionId: status.executionId, offset: 0, limit: 1, allowPartialResults: true, signal });
  return page.ok && page.data.metadata !== null ? { ...status, resultMetadata: page.data.metadata } : status;
}
