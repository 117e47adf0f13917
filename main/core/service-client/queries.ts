import type { ClientResult } from './errors.ts';
import type { Transport } from './request.ts';
import { isObject, readBoolean, readInt, readObject, readString, readStringArray, type JsonObject } from './wire-read.ts';

// Stored queries: GET /queries (the key's context), GET /query/{id}, POST /query, PATCH /query/{id}.

export interface QueryListItem {
  id: number;
  name: string;
  description: string;
  owner: string;
  tags: string[];
  createdAt: string | null;
  updatedAt: string | null;
}

/** An enum's options taken from a column of another query's latest result. */
export interface EnumFromResults {
  queryId: number;
  columnName: string;
}

/** Every documented field of a parameter (notes §7.2): a PATCH of the list erases any left out. */
export interface QueryParameterDefinition {
  key: string;
  type: string;
  value: string;
  description: string | null;
  enumOptions: string[] | null;
  isMultiselect: boolean | null;
  isFreeformAllowed: boolean | null;
  enumFromResults: EnumFromResults | null;
  values: string[] | null;
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

/** A parameter definition as the query endpoints take it: camelCase keys, the value as text. */
export interface ParameterDefinitionInput {
  key: string;
  type: string;
  value: string;
  description?: string;
  enumOptions?: string[];
  isMultiselect?: boolean;
  isFreeformAllowed?: boolean;
  enumFromResults?: EnumFromResults;
  values?: string[];
}

export interface NewQueryArgs {
  name: string;
  querySql: string;
  description?: string;
  parameters?: ParameterDefinitionInput[];
  tags?: string[];
  isPrivate?: boolean;
}

/** Fields left out stay as they are; an empty `tags` or `parameters` list removes them all. */
export type QueryChanges = Partial<Pick<NewQueryArgs, 'name' | 'querySql' | 'description' | 'parameters' | 'tags'>>;

export interface QueriesApi {
  list(args?: {
    limit?: number;
    offset?: number;
    signal?: AbortSignal;
  }): Promise<ClientResult<{ queries: QueryListItem[]; total: number }>>;
  get(queryId: number, options?: { signal?: AbortSignal }): Promise<ClientResult<QueryRecord>>;
  /** Answers the new query's id. */
  create(args: NewQueryArgs, options?: { signal?: AbortSignal }): Promise<ClientResult<number>>;
  update(queryId: number, changes: QueryChanges, options?: { signal?: AbortSignal }): Promise<ClientResult<number>>;
  /** `POST /query/{id}/archive|unarchive|private|unprivate`. */
  setFlag(queryId: number, action: QueryFlagAction, options?: { signal?: AbortSignal }): Promise<ClientResult<number>>;
}

export type QueryFlagAction = 'archive' | 'unarchive' | 'private' | 'unprivate';

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
      transport.json({ method: 'GET', path: `/query/${queryId}`, signal: options.signal }, (body) =>
        isObject(body) ? readQueryRecord(body) : null,
      ),

    // Not sent twice after a server error: a second create would make a second query.
    create: (args, options = {}) =>
      transport.json(
        { method: 'POST', path: '/query', body: { ...wireFields(args), is_private: args.isPrivate ?? false }, signal: options.signal },
        readQueryId,
      ),

    // Setting the same fields twice leaves the same query.
    update: (queryId, changes, options = {}) =>
      transport.json(
        { method: 'PATCH', path: `/query/${queryId}`, body: wireFields(changes), signal: options.signal, idempotent: true },
        readQueryId,
      ),

    // Archiving an archived query leaves it archived: safe to send again.
    setFlag: (queryId, action, options = {}) =>
      transport.json({ method: 'POST', path: `/query/${queryId}/${action}`, signal: options.signal, idempotent: true }, readQueryId),
  };
}

function wireFields(fields: QueryChanges): JsonObject {
  const wire: JsonObject = {
    name: fields.name,
    query_sql: fields.querySql,
    description: fields.description,
    parameters: fields.parameters,
    tags: fields.tags,
  };
  // JSON drops undefined; left out, a field stays as it is on the service.
  return Object.fromEntries(Object.entries(wire).filter(([, value]) => value !== undefined));
}

function readQueryId(body: unknown): number | null {
  return isObject(body) ? readInt(body, 'query_id') : null;
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
    isFreeformAllowed: readBoolean(parameter, 'isFreeformAllowed'),
    enumFromResults: readEnumFromResults(parameter),
    values: readStringArray(parameter, 'values'),
  };
}

function readEnumFromResults(parameter: JsonObject): EnumFromResults | null {
  const source = readObject(parameter, 'enumFromResults');
  const queryId = source === null ? null : readInt(source, 'queryId');
  const columnName = source === null ? null : readString(source, 'columnName');
  return queryId !== null && queryId > 0 && columnName ? { queryId, columnName } : null;
}
