import type { TableSummary } from '$contract/index.ts';
import type { CompletionData } from '../editor/completion.ts';
import type { ErrorAt } from '../editor/error-mark.ts';
import type { Run } from './run.svelte.ts';

// What a run shown below an editor puts back into it: its failure's position, and its result's
// columns as completions.

/**
 * The failed run's position, marked in the editor until the next run. The service reports it in
 * the SQL as it ran (a selection, values put in): it is mapped back to the editor's text.
 */
export function errorMarkOf(run: Run | null): ErrorAt | null {
  const error = run?.phase === 'failed' ? run.update?.error : null;
  if (error?.line == null) return null;
  const reported = { line: error.line, column: error.column ?? 1 };
  const at = run?.toEditor ? run.toEditor(reported) : reported;
  return at ? { line: at.line, column: at.column, message: error.message } : null;
}

/**
 * The result's columns as text: completions are derived from it rather than from the run, so that
 * a run's status updates do not set the editor's language again each time.
 */
export function resultColumnsKey(run: Run | null): string {
  return JSON.stringify([run?.update?.result?.columnNames ?? [], run?.update?.result?.columnTypes ?? []]);
}

/** Offered while typing: the account's tables, and the columns of the result (`resultColumnsKey`). */
export function completionOf(tables: TableSummary[], columnsKey: string): CompletionData {
  const [names, types] = JSON.parse(columnsKey) as [string[], string[]];
  return { tables, resultColumns: names.map((name, i) => ({ name, type: types[i] ?? '' })) };
}
