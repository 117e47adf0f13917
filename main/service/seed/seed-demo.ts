import type { AccountStore } from '../accounts/account-store.ts';
import { newApiKey } from '../ids.ts';
import type { QueryStore } from '../queries/query-store.ts';
import { DEMO_QUERIES } from './demo-queries.ts';

export const DEMO_HANDLE = 'demo';

/** On a data directory without accounts: the demo user and its queries (its key is given at each start, see demoKeyForRun). */
export async function seedDemo(accounts: AccountStore, queries: QueryStore): Promise<void> {
  if ((await accounts.count()) > 0) return;
  const demo = await accounts.upsert(DEMO_HANDLE, 'user', 'plus');
  for (const query of DEMO_QUERIES) await queries.create({ ...query, ownerId: demo.id });
}

/**
 * The demo account's key for this run, which the app's "Local" account uses; null when there is no
 * demo account. The service keeps only a hash of it, so it cannot give back a key it made before:
 * the host's kept key (`kept`) stays the key, or a fresh one is made; either way it becomes the
 * demo account's only key, and one made for an earlier run is refused from now on.
 */
export async function demoKeyForRun(accounts: AccountStore, kept: string | undefined): Promise<string | null> {
  const demo = await accounts.byHandle(DEMO_HANDLE);
  if (!demo) return null;
  const key = kept ?? newApiKey();
  await accounts.replaceApiKeys(demo.id, key);
  return key;
}
