import { mkdir, rm } from 'node:fs/promises';
import type { ExecutionStore } from '../executions/execution-store.ts';
import type { ResultStore } from '../results/result-store.ts';

// What a process killed mid-work leaves behind, removed at the next start: temporary upload files
// (no upload can be under way before the service listens), and the result tables of executions
// that never completed (interrupted while their rows were being stored).

export async function sweepLeftovers(tempDir: string, executions: ExecutionStore, results: ResultStore): Promise<{ tables: number }> {
  await rm(tempDir, { recursive: true, force: true });
  await mkdir(tempDir, { recursive: true });
  const complete = await executions.idsWithResult();
  const orphans = (await results.storedExecutionIds()).filter((id) => !complete.has(id));
  for (const id of orphans) await results.drop(id);
  return { tables: orphans.length };
}
