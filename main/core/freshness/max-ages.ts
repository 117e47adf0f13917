import { maxAgeMinutes } from '../../contract/index.ts';
import type { UiState } from '../workspace/ui-state.ts';

// A query's max age is kept with the account's workspace (its ui.json, written when it changes),
// beside the query's other window state.

const keyOf = (queryId: number) => `maxage:${queryId}`;

/** The query's max age in minutes; null when none is set (or what the file holds is not one). */
export function maxAgeOf(ui: UiState, accountId: string, queryId: number): number | null {
  const read = maxAgeMinutes.safeParse(ui.get(accountId, keyOf(queryId)));
  return read.success ? read.data : null;
}

export function setMaxAge(ui: UiState, accountId: string, queryId: number, minutes: number | null): void {
  ui.set(accountId, keyOf(queryId), minutes);
}
