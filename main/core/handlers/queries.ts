import { ok, type QueryDetail, type QueryParameter, type Result } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { findAccount, isFailure, serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { ClientResult, QueryParameterDefinition, QueryRecord, ServiceClient } from '../service-client/index.ts';

export function queryHandlers(accounts: AccountRegistry): Pick<Handlers, 'queries:list' | 'queries:get' | 'queries:create' | 'queries:update'> {
  // Create and update answer only an id; the query as saved is read back, so the UI shows the
  // service's version of it (its new version number, the fields it normalised).
  async function readBack(client: ServiceClient, saved: ClientResult<number>): Promise<Result<QueryDetail>> {
    if (!saved.ok) return serviceFailure(saved.error);
    const read = await client.queries.get(saved.value);
    return read.ok ? ok(toQueryDetail(read.value)) : serviceFailure(read.error);
  }

  return {
    'queries:list': async ({ accountId, limit, offset }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      const read = await entry.client.queries.list({ limit, offset });
      return read.ok ? ok(read.value) : serviceFailure(read.error);
    },

    'queries:get': async ({ accountId, queryId }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      return readBack(entry.client, { ok: true, value: queryId });
    },

    'queries:create': async ({ accountId, sql, ...fields }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      return readBack(entry.client, await entry.client.queries.create({ ...fields, querySql: sql }));
    },

    'queries:update': async ({ accountId, queryId, sql, ...fields }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      return readBack(entry.client, await entry.client.queries.update(queryId, { ...fields, querySql: sql }));
    },
  };
}

function toQueryDetail(record: QueryRecord): QueryDetail {
  return {
    id: record.queryId,
    name: record.name,
    description: record.description,
    owner: record.owner,
    tags: record.tags,
    version: record.version,
    sql: record.querySql,
    parameters: record.parameters.map(toParameter),
    isPrivate: record.isPrivate,
    isArchived: record.isArchived,
  };
}

function toParameter(definition: QueryParameterDefinition): QueryParameter {
  return {
    key: definition.key,
    type: definition.type,
    value: definition.value,
    ...(definition.description === null ? {} : { description: definition.description }),
    ...(definition.enumOptions === null ? {} : { enumOptions: definition.enumOptions }),
    ...(definition.isMultiselect === null ? {} : { isMultiselect: definition.isMultiselect }),
  };
}
