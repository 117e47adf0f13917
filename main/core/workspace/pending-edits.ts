import type { ContractError, PendingEdit, QueryDetail, QueryEdit } from '../../contract/index.ts';
import { toQueryChanges, toQueryDetail } from '../queries/query-detail.ts';
import { isNetworkFailure, type ServiceClient, type ServiceError } from '../service-client/index.ts';

// Sending an edit made from a known version of a query: the service's version is read first, and
// a version that moved on is a conflict (nothing is sent), so no one's save is overwritten unseen.

export type SendOutcome =
  | { kind: 'saved'; query: QueryDetail }
  | { kind: 'conflict'; theirs: QueryDetail }
  /** The service could not be reached: try again later. */
  | { kind: 'unreachable'; error: ServiceError }
  /** The service answered no (its words in `error`). */
  | { kind: 'refused'; error: ServiceError };

function failed(error: ServiceError): SendOutcome {
  return isNetworkFailure(error) ? { kind: 'unreachable', error } : { kind: 'refused', error };
}

/** `force`: send over whatever version the service has (the user chose theirs to be replaced). */
export async function sendEdit(
  client: ServiceClient,
  queryId: number,
  baseVersion: number,
  edit: QueryEdit,
  force = false,
): Promise<SendOutcome> {
  if (!force) {
    const current = await client.queries.get(queryId);
    if (!current.ok) return failed(current.error);
    if (current.data.version !== baseVersion) return { kind: 'conflict', theirs: toQueryDetail(current.data) };
  }
  const saved = await client.queries.update(queryId, toQueryChanges(edit));
  if (!saved.ok) return failed(saved.error);
  const read = await client.queries.get(queryId);
  return read.ok ? { kind: 'saved', query: toQueryDetail(read.data) } : failed(read.error);
}

/** A later save of a query with an edit waiting: one edit, later fields win, the first base version stays. */
export function mergePending(
  existing: PendingEdit | undefined,
  queryId: number,
  baseVersion: number,
  edit: QueryEdit,
  savedAt: string,
): PendingEdit {
  return {
    queryId,
    baseVersion: existing?.baseVersion ?? baseVersion,
    edit: { ...existing?.edit, ...edit },
    savedAt,
    state: 'waiting',
    error: null,
    theirs: existing?.theirs ?? null,
  };
}

export function contractError(error: ServiceError): Pick<ContractError, 'code' | 'message'> {
  return { code: error.kind, message: error.message };
}
