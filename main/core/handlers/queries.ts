import { fail, ok, type PendingEdit, type QueryDetail, type Result } from '../../contract/index.ts';
import { withAccount } from '../accounts/find-account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { ActivityLog } from '../logging/activity-log.ts';
import { toQueryChanges, toQueryDetail } from '../queries/query-detail.ts';
import type { ClientResult, ServiceClient } from '../service-client/index.ts';
import type { QueryFlagAction } from '../service-client/queries.ts';
import { mergePending, sendEdit } from '../workspace/pending-edits.ts';
import type { Workspaces } from '../workspace/workspaces.ts';

type QueryChannel = 'queries:get' | 'queries:create' | 'queries:setFlags' | 'queries:save' | 'queries:resolvePending';

/** Every answer of the service is kept in the account's local workspace, so it can be shown offline. */
export function queryHandlers(
  accounts: AccountRegistry,
  workspaces: Workspaces,
  activity: ActivityLog,
  now: () => Date = () => new Date(),
): Pick<Handlers, QueryChannel> {
  return { ...serviceHandlers(accounts, workspaces), ...editHandlers(accounts, workspaces, activity, now) };
}

/** Reads and writes sent to the service as they come. */
function serviceHandlers(
  accounts: AccountRegistry,
  workspaces: Workspaces,
): Pick<Handlers, 'queries:get' | 'queries:create' | 'queries:setFlags'> {
  // Create and setting flags answer only an id; the query as saved is read back, so the UI shows the
  // service's version of it (its new version number, the fields it normalised).
  async function readBack(
    accountId: string,
    client: ServiceClient,
    saved: ClientResult<number>,
    isNew: boolean,
  ): Promise<Result<QueryDetail>> {
    const read = saved.ok ? await client.queries.get(saved.data) : saved;
    if (!read.ok) return serviceFailure(read.error);
    const query = toQueryDetail(read.data);
    workspaces.recordQuery(accountId, query, isNew);
    return ok(query);
  }

  return {
    'queries:get': withAccount(accounts, async (entry, { accountId, queryId }) => {
      return readBack(accountId, entry.client, { ok: true, data: queryId }, false);
    }),

    'queries:create': withAccount(accounts, async (entry, { accountId, sql, ...fields }) => {
      return readBack(accountId, entry.client, await entry.client.queries.create({ ...fields, querySql: sql }), true);
    }),

    'queries:setFlags': withAccount(accounts, async (entry, { accountId, queryId, archived, isPrivate }) => {
      const actions: QueryFlagAction[] = [];
      if (isPrivate !== undefined) actions.push(isPrivate ? 'private' : 'unprivate');
      if (archived !== undefined) actions.push(archived ? 'archive' : 'unarchive');
      let sent: ClientResult<number> = { ok: true, data: queryId };
      for (const action of actions) {
        sent = await entry.client.queries.setFlag(queryId, action);
        if (!sent.ok) break;
      }
      return readBack(accountId, entry.client, sent, false);
    }),
  };
}

/** Edits made from a version of the query, kept when they cannot be sent, and their conflicts ended. */
function editHandlers(
  accounts: AccountRegistry,
  workspaces: Workspaces,
  activity: ActivityLog,
  now: () => Date,
): Pick<Handlers, 'queries:save' | 'queries:resolvePending'> {
  return {
    'queries:save': withAccount(accounts, async (entry, { accountId, queryId, baseVersion, edit }) => {
      const pending = mergePending(workspaces.pendingOf(accountId, queryId), queryId, baseVersion, edit, now().toISOString());
      const outcome = await sendEdit(entry.client, queryId, pending.baseVersion, pending.edit);
      switch (outcome.kind) {
        case 'saved':
          workspaces.setPending(accountId, queryId, null);
          workspaces.recordQuery(accountId, outcome.query, false);
          return ok({ status: 'saved', query: outcome.query });
        case 'conflict': {
          const conflict = { ...pending, state: 'conflict' as const, theirs: outcome.theirs };
          workspaces.setPending(accountId, queryId, conflict);
          return ok({ status: 'conflict', pending: conflict });
        }
        case 'unreachable':
          workspaces.setPending(accountId, queryId, pending);
          return ok({ status: 'pending', pending });
        case 'refused':
          return serviceFailure(outcome.error);
      }
    }),

    'queries:resolvePending': withAccount(accounts, async (entry, { accountId, queryId, choice }) => {
      const pending = workspaces.pendingOf(accountId, queryId);
      if (!pending) return fail('not_found', `Query #${queryId} has no saved edit waiting.`);
      const answer = await resolvePending(entry.client, workspaces, accountId, pending, choice);
      activity.conflictResolved(accountId, queryId, choice, answer.ok ? null : answer.error);
      if (answer.ok) {
        workspaces.setPending(accountId, queryId, null);
        workspaces.recordQuery(accountId, answer.data, answer.data.id !== queryId);
        workspaces.changed(accountId);
      }
      return answer;
    }),
  };
}

/** Mine: sent over the service's version. Theirs: the service's version. Copy: mine as a new query. */
async function resolvePending(
  client: ServiceClient,
  workspaces: Workspaces,
  accountId: string,
  pending: PendingEdit,
  choice: 'mine' | 'theirs' | 'copy',
): Promise<Result<QueryDetail>> {
  const { queryId } = pending;
  if (choice === 'mine') {
    const sent = await sendEdit(client, queryId, pending.baseVersion, pending.edit, true);
    return sent.kind === 'saved' ? ok(sent.query) : sent.kind === 'conflict' ? ok(sent.theirs) : serviceFailure(sent.error);
  }
  const current = await client.queries.get(queryId);
  if (!current.ok && choice === 'copy') return serviceFailure(current.error);
  const theirs = current.ok ? toQueryDetail(current.data) : (pending.theirs ?? workspaces.store(accountId).query(queryId)?.query ?? null);
  if (theirs === null) return current.ok ? fail('not_found', `Query #${queryId} is not known here.`) : serviceFailure(current.error);
  if (choice === 'theirs') return ok(theirs);
  const changes = toQueryChanges(pending.edit);
  const created = await client.queries.create({
    name: `${pending.edit.name ?? theirs.name} (my copy)`,
    querySql: changes.querySql ?? theirs.sql,
    description: changes.description ?? theirs.description,
    tags: changes.tags ?? theirs.tags,
    parameters: changes.parameters ?? theirs.parameters,
  });
  if (!created.ok) return serviceFailure(created.error);
  const read = await client.queries.get(created.data);
  return read.ok ? ok(toQueryDetail(read.data)) : serviceFailure(read.error);
}
