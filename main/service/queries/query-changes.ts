import type { QueryFields, StoredQuery } from './query-store.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields of an update that differ from the query as stored. Clients send whole records back
 * (GO sends the flags with every edit), and a field sent as it already is changes nothing: not the
 * version, which a query's latest results are kept by.
 */
export function changesOf(query: StoredQuery, fields: QueryFields): QueryFields {
  const stored: Required<QueryFields> = {
    name: query.name,
    description: query.description,
    tags: query.tags,
    sql: query.sql,
    parameters: query.parameters,
    isPrivate: query.isPrivate,
    isArchived: query.isArchived,
  };
  const changed = Object.entries(fields).filter(
    ([field, value]) => value !== undefined && !same(value, stored[field as keyof QueryFields]),
  );
  return Object.fromEntries(changed) as QueryFields;
}
