import { z } from 'zod';
import { DEFAULT_CACHE_BUDGET_BYTES } from './result-cache.ts';

// The cache's setting, kept with the app's other settings: how much the cached results may take.

export const CacheSettings = z.object({ budgetBytes: z.number().int().nonnegative() });
export type CacheSettings = z.infer<typeof CacheSettings>;

export const defaultCacheSettings = (): CacheSettings => ({ budgetBytes: DEFAULT_CACHE_BUDGET_BYTES });
