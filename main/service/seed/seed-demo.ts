import type { AccountStore } from '../accounts/account-store.ts';
import { newApiKey } from '../ids.ts';
import type { QueryStore } from '../queries/query-store.ts';
import { DEMO_QUERIES } from './demo-queries.ts';

const DEMO_HANDLE = 'demo';

/** On a data directory without accounts: the demo user, its key and its queries. */
export async function seedDemo(accounts: AccountStore, queries: QueryStore): Promise<void> {
  if ((await accounts.count()) > 0) return;
  const demo = await accounts.upsert(DEMO_HANDLE, 'user', 'plus');
  await accounts.addApiKey(demo.id, newApiKey());
  for (const query of DEMO_QUERIES) await queries.create({ ...query, ownerId: demo.id });
}

/** The demo account's key, which the app's "Local" account uses; null when there is no demo account. */
export async function demoApiKey(accounts: AccountStore): Promise<string | null> {
  const demo = await accounts.byHandle(DEMO_HANDLE);
  return demo ? accounts.firstApiKey(demo.id) : null;
}
