import type { ResultStore } from '../results/result-store.ts';
import { nowIso } from '../time.ts';
import { STATE, type Execution, type ExecutionStore } from './execution-store.ts';

/**
 * A result past its `expires_at` is deleted and its execution reads as EXPIRED from then on.
 * Checked when an execution is read, so no timer is needed for it to hold.
 */
export async function expireIfDue(execution: Execution, executions: ExecutionStore, results: ResultStore): Promise<Execution> {
  const due = execution.expiresAt !== null && Date.parse(execution.expiresAt) <= Date.now();
  if (!due || (execution.state !== STATE.completed && execution.state !== STATE.completedPartial)) return execution;
  await executions.expire(execution.id, nowIso());
  await results.drop(execution.id);
  return { ...execution, state: STATE.expired, result: null };
}

/** Expires every result past its time, so their tables do not wait for a read to be deleted. */
export async function expireDue(executions: ExecutionStore, results: ResultStore): Promise<void> {
  for (const id of await executions.dueForExpiry(nowIso())) {
    await executions.expire(id, nowIso());
    await results.drop(id);
  }
}
