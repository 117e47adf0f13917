import type { Failure } from '../../contract/index.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import { partialFailure } from './read-range.ts';

export interface ReadRequest {
  accountId: string;
  executionId: string;
  allowPartial: boolean;
}

/** The cached entry when it may be read: a partial one only when the request allows it. */
export async function cachedEntry(
  cache: ResultCache,
  { accountId, executionId, allowPartial }: ReadRequest,
): Promise<CacheEntry | Failure | null> {
  const entry = await cache.use(accountId, executionId);
  if (entry?.isPartial && !allowPartial) return partialFailure(null);
  return entry;
}
