// Dune's execution states as the wire spells them (notes §3), and the two rules both sides read
// from them: which states end an execution, and which carry a result. The service writes them,
// the app reads them; a state this list does not know ends nothing and carries nothing.

export const TERMINAL_STATES: ReadonlySet<string> = new Set([
  'QUERY_STATE_COMPLETED',
  'QUERY_STATE_COMPLETED_PARTIAL',
  'QUERY_STATE_FAILED',
  'QUERY_STATE_CANCELLED',
  'QUERY_STATE_EXPIRED',
]);

/** The states whose execution has a result to read (a partial one included). */
export const STATES_WITH_RESULT: readonly string[] = ['QUERY_STATE_COMPLETED', 'QUERY_STATE_COMPLETED_PARTIAL'];
const WITH_RESULT: ReadonlySet<string> = new Set(STATES_WITH_RESULT);

/** Whether `state` ends an execution: it will not change again. */
export function isTerminalState(state: string): boolean {
  return TERMINAL_STATES.has(state);
}

/** Whether an execution in `state` has a result to read (a partial one included). */
export function hasResult(state: string): boolean {
  return WITH_RESULT.has(state);
}

/** Dune's words when a partial result is read without `allow_partial_results=true` (an HTTP 400). */
export const PARTIAL_REFUSAL = "Partial Result, please request with 'allows_partial_results=true'";

/** Whether a refusal's words are Dune's for a partial result read without allowing it. */
export function isPartialRefusalText(message: string): boolean {
  return /partial result/i.test(message);
}
