import type { ServiceAccount } from '../accounts/account-store.ts';
import type { Router } from '../http/router.ts';
import { readableQuery, requireQueryPlan } from '../queries/query-access.ts';
import type { StoredQuery } from '../queries/query-store.ts';
import { pageWindow } from '../results/paging.ts';
import type { ServiceDeps } from '../service-deps.ts';

const LIST_PAGE_DEFAULT = 20;
const LIST_PAGE_MAX = 1000;

/** The query record of `GET /query/{id}` (notes §7.1): every field present, as PY's client requires. */
function queryRecord(query: StoredQuery) {
  return {
    query_id: query.id,
    name: query.name,
    description: query.description,
    tags: query.tags,
    version: query.version,
    parameters: query.parameters,
    query_engine: 'medium',
    query_sql: query.sql,
    is_private: query.isPrivate,
    is_archived: query.isArchived,
    is_unsaved: false,
    owner: query.owner,
  };
}

function summary(query: StoredQuery) {
  return {
    id: query.id,
    name: query.name,
    description: query.description,
    owner: query.owner,
    tags: query.tags,
    created_at: query.createdAt,
    updated_at: query.updatedAt,
  };
}

export function addQueryRoutes(router: Router<ServiceAccount>, deps: ServiceDeps): void {
  const { queries } = deps;

  router.add('GET', '/api/v1/queries', async ({ caller, url }) => {
    requireQueryPlan(caller);
    const window = pageWindow(url, LIST_PAGE_MAX, LIST_PAGE_DEFAULT);
    const page = await queries.listByOwner(caller.id, window.limit, window.offset);
    return { json: { queries: page.queries.map(summary), total: page.total } };
  });

  router.add('GET', '/api/v1/query/:id', async ({ caller, params }) => {
    requireQueryPlan(caller);
    return { json: queryRecord(await readableQuery(queries, caller, params.id!)) };
  });
}
