import { ok, type QueryDetail, type QueryParameter } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { findAccount, isFailure, serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { QueryParameterDefinition, QueryRecord } from '../service-client/index.ts';

export function queryHandlers(accounts: AccountRegistry): Pick<Handlers, 'queries:list' | 'queries:get'> {
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
      const read = await entry.client.queries.get(queryId);
      return read.ok ? ok(toQueryDetail(read.value)) : serviceFailure(read.error);
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
