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

/** Calls `retry` once the result's service answers again, or once the cache holds the result; answers how to stop listening. */
export function onReachable(source: ResultSource, retry: () => void): () => void {
  const ids = resultIds(source);
  const stops = [
    source.api.on('workspace:sync', (state) => {
      if (state.accountId === ids.accountId && state.status === 'online') retry();
    }),
    source.api.on('results:cacheStatus', (status) => {
      if (status.accountId === ids.accountId && status.executionId === ids.executionId && status.state === 'cached') retry();
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
