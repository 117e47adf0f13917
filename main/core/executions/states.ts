import { isTerminalState } from '../../common/dune-states.ts';

// Which wire states end an execution. A state this app does not know is not terminal, unless the
// service itself says the execution is finished: so a new terminal state (as COMPLETED_PARTIAL
// once was) can never leave the watcher polling forever, and nothing crashes on a new string.

export function isTerminal(state: string, isExecutionFinished: boolean | null): boolean {
  return isExecutionFinished === true || isTerminalState(state);
}

const WHY_NO_RESULT: Record<string, string> = {
  QUERY_STATE_PENDING: 'it is waiting to run',
  QUERY_STATE_EXECUTING: 'it is still running',
  QUERY_STATE_FAILED: 'it failed',
  QUERY_STATE_CANCELLED: 'it was cancelled',
  QUERY_STATE_EXPIRED: 'its result has expired; run the query again',
};

/** Why an execution has no result to `use` (read, cache, export, sample), as a sentence. */
export function noResultText(use: string, state: string): string {
  return `The execution has no result to ${use}: ${WHY_NO_RESULT[state] ?? `its state is one this app does not know (${state})`}.`;
}
