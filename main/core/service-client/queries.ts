import type { ClientResult } from './errors.ts';
import type { Transport } from './request.ts';
import { isObject, readBoolean, readInt, readString, readStringArray, type JsonObject } from './wire-read.ts';

// Stored queries: GET /queries (the key's context) and GET /query/{id}.

export interface QueryListItem {
  id: number;
  name: string;
  description: string;
  owner: string;
  tags: string[];
  createdAt: string | null;
  updatedAt: string | null;
}

export interface QueryParameterDefinition {
  key: string;
  type: string;
  value: string;
  description: string | null;
  enumOptions: string[] | null;
  isMultiselect: boolean | null;
}

export interface QueryRecord {
  queryId: number;
  name: string;
  description: string;
  owner: string;
  tags: string[];
  version: number;
  querySql: string;
  parameters: QueryParameterDefinition[];
  isPrivate: boolean;
  isArchived: boolean;
  isUnsaved: boolean;
  queryEngine: string | null;
}

export interface QueriesApi {
  list(args?: { limit?: number; offset?: number; signal?: AbortSignal }): Promise<ClientResult<{ queries: QueryListItem[]; total: number }>>;
  get(queryId: number, options?: { signal?: AbortSignal }): Promise<ClientResult<QueryRecord>>;
}

export function createQueriesApi(transport: Transport): QueriesApi {
  return {
    list: ({ limit, offset, signal } = {}) =>
      transport.json({ method: 'GET', path: '/queries', query: { limit, offset }, signal }, (body) => {
        if (!isObject(body) || !Array.isArray(body.queries)) return null;
        const queries = body.queries.filter(isObject).flatMap((item) => {
          const listed = readListItem(item);
          return listed === null ? [] : [listed];
        });
        return { queries, total: readInt(body, 'total') ?? queries.length };
      }),

    get: (queryId, options = {}) =>
      transport.json({ method: 'GET', path: `/query/${queryId}`, signal: options.signal }, (body) => (isObject(body) ? readQueryRecord(body) : null)),
  };
}

function readListItem(item: JsonObject): QueryListItem | null {
  const id = readInt(item, 'id') ?? readInt(item, 'query_id');
  if (id === null) return null;
  return {
    id,
    name: readString(item, 'name') ?? `Query ${id}`,
    description: readString(item, 'description') ?? '',
    owner: readString(item, 'owner') ?? '',
    tags: readStringArray(item, 'tags') ?? [],
    createdAt: readString(item, 'created_at'),
    updatedAt: readString(item, 'updated_at'),
  };
}

function readQueryRecord(body: JsonObject): QueryRecord | null {
  const queryId = readInt(body, 'query_id');
  if (queryId === null) return null;
  const parameters = Array.isArray(body.parameters) ? body.parameters.filter(isObject).map(readParameter) : [];
  return {
    queryId,
    name: readString(body, 'name') ?? `Query ${queryId}`,
    description: readString(body, 'description') ?? '',
    owner: readString(body, 'owner') ?? '',
    tags: readStringArray(body, 'tags') ?? [],
    version: readInt(body, 'version') ?? 0,
    querySql: readString(body, 'query_sql') ?? '',
    parameters,
    isPrivate: readBoolean(body, 'is_private') ?? false,
    isArchived: readBoolean(body, 'is_archived') ?? false,
    isUnsaved: readBoolean(body, 'is_unsaved') ?? false,
    queryEngine: readString(body, 'query_engine'),
  };
}

function readParameter(parameter: JsonObject): QueryParameterDefinition {
  const value = parameter.value;
  return {
    key: readString(parameter, 'key') ?? '',
    type: readString(parameter, 'type') ?? 'text',
    // Values are strings on the wire; a number or list is tolerated and shown as text.
    value: typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value),
    description: readString(parameter, 'description'),
    enumOptions: readStringArray(parameter, 'enumOptions'),
    isMultiselect: readBoolean(parameter, 'isMultiselect'),
  };
}
