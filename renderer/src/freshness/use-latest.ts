import type { ParameterValues } from '$contract/index.ts';
import type { WindowState } from '../shell/window-state.ts';

/**
 * Run of a query with a max age: asks for the service's latest result of these values and, when it
 * is young enough, shows it instead of starting an execution. Answers whether it did.
 */
export async function useLatest(
  { freshness, runs }: Pick<WindowState, 'freshness' | 'runs'>,
  accountId: string,
  queryId: number,
  values: ParameterValues,
): Promise<boolean> {
  // asked again, not taken from what is on screen: another window or app may have run it since
  if ((await freshness.load(accountId, queryId, values)) === null) return false;
  const decision = freshness.decision(accountId, queryId, values, Date.now());
  if (!decision.reuse) return false;
  freshness.markReused(decision.execution.executionId);
  runs.useLatest(accountId, queryId, decision.execution, values);
  return true;
}
