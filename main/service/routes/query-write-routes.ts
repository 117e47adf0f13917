import type { ServiceAccount } from '../accounts/account-store.ts';
import { HttpError } from '../http/http-error.ts';
import { parseJsonObject, readBody } from '../http/request-body.ts';
import type { Router } from '../http/router.ts';
import { validateBody } from '../http/validate-body.ts';
import { readableQuery, requireQueryPlan } from '../queries/query-access.ts';
import { changesOf } from '../queries/query-changes.ts';
import { CreateQueryBody, UpdateQueryBody } from '../queries/query-input.ts';
import type { StoredQuery } from '../queries/query-store.ts';
import type { ServiceDeps } from '../service-deps.ts';

const MAX_QUERY_BODY = 5 * 1024 * 1024;

/** Only the context that owns a query manages it; others may at most read it. */
function requireOwner(account: ServiceAccount, query: StoredQuery): void {
  if (query.ownerId !== account.id) {
    throw new HttpError(403, `not enough permissions: query ${query.id} belongs to another context ('${query.owner}')`);
  }
}

const FLAGS = {
  archive: { isArchived: true },
  unarchive: { isArchived: false },
  private: { isPrivate: true },
  unprivate: { isPrivate: false },
} as const;

export function addQueryWriteRoutes(router: Router<ServiceAccount>, deps: ServiceDeps): void {
  const { queries, config } = deps;

  router.add('POST', '/api/v1/query', async ({ request, caller }) => {
    requireQueryPlan(caller);
    const body = validateBody(CreateQueryBody, parseJsonObject(await readBody(request, MAX_QUERY_BODY, config.bodyIdleMillis)));
    const id = await queries.create({
      ownerId: caller.id,
      name: body.name,
      description: body.description,
      tags: body.tags,
      sql: body.query_sql,
      parameters: body.parameters,
      isPrivate: body.is_private,
    });
    return { json: { query_id: id } };
  });

  router.add('PATCH', '/api/v1/query/:id', async ({ request, caller, params }) => {
    requireQueryPlan(caller);
    const query = await readableQuery(queries, caller, params.id!);
    requireOwner(caller, query);
    const body = validateBody(UpdateQueryBody, parseJsonObject(await readBody(request, MAX_QUERY_BODY, config.bodyIdleMillis)));
    if (query.isArchived && body.is_archived !== false) {
      throw new HttpError(403, `query ${query.id} is archived and cannot be edited; unarchive it first`);
    }
    const fields = {
      name: body.name,
      description: body.description,
      tags: body.tags,
      sql: body.query_sql,
      parameters: body.parameters,
      isPrivate: body.is_private,
      isArchived: body.is_archived,
    };
    await queries.update(query.id, changesOf(query, fields));
    return { json: { query_id: query.id } };
  });

  for (const [action, change] of Object.entries(FLAGS)) {
    router.add('POST', `/api/v1/query/:id/${action}`, async ({ caller, params }) => {
      requireQueryPlan(caller);
      const query = await readableQuery(queries, caller, params.id!);
      requireOwner(caller, query);
      await queries.update(query.id, changesOf(query, change));
      return { json: { query_id: query.id } };
    });
  }
}
