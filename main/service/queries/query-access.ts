import type { ServiceAccount } from '../accounts/account-store.ts';
import { HttpError, notFound } from '../http/http-error.ts';
import type { QueryStore, StoredQuery } from './query-store.ts';

function canRead(account: ServiceAccount, query: StoredQuery): boolean {
  return query.ownerId === account.id || !query.isPrivate;
}

/** The query, when the caller may see it; another context's private query is as absent as a missing one. */
export async function readableQuery(queries: QueryStore, account: ServiceAccount, idText: string): Promise<StoredQuery> {
  const id = /^\d{1,9}$/.test(idText) ? Number(idText) : 0;
  const query = id > 0 ? await queries.get(id) : null;
  if (!query || !canRead(account, query)) throw notFound('Query not found');
  return query;
}

/** The query endpoints (create, read, update, list) need a Plus plan or higher, as on the real service. */
export function requireQueryPlan(account: ServiceAccount): void {
  if (account.plan === 'free') {
    throw new HttpError(403, `query endpoints need a plus or premium plan; the account '${account.handle}' is on the free plan`);
  }
}
