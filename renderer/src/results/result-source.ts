import type { Api } from '../lib/bridge.ts';

/** Which result a view works on, and the way to main: what every result request starts with. */
export interface ResultSource {
  api: Api;
  accountId: string;
  executionId: string;
}

export function resultIds(source: ResultSource): { accountId: string; executionId: string } {
  return { accountId: source.accountId, executionId: source.executionId };
}
