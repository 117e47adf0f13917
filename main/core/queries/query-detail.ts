import type { QueryDetail, QueryEdit, QueryParameter } from '../../contract/index.ts';
import type { QueryChanges, QueryParameterDefinition, QueryRecord } from '../service-client/index.ts';

// A stored query between the service client's shape and the contract's.

export function toQueryDetail(record: QueryRecord): QueryDetail {
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
    ...(definition.isFreeformAllowed === null ? {} : { isFreeformAllowed: definition.isFreeformAllowed }),
    ...(definition.enumFromResults === null ? {} : { enumFromResults: definition.enumFromResults }),
    ...(definition.values === null ? {} : { values: definition.values }),
  };
}

/** The client's changes for an edit: the SQL travels as `querySql`. */
export function toQueryChanges({ sql, ...fields }: QueryEdit): QueryChanges {
  return { ...fields, ...(sql === undefined ? {} : { querySql: sql }) };
}
