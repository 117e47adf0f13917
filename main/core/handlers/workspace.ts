import { fail, ok, type PendingEdit, type QueryDetail, type Result } from '../../contract/index.ts';
import { findAccount } from '../accounts/find-account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { isFailure, noSuchAccount, serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { ActivityLog } from '../logging/activity-log.ts';
import { toQueryChanges, toQueryDetail } from '../queries/query-detail.ts';
import type { ServiceClient } from '../service-client/index.ts';
import { mergePending, sendEdit } from '../workspace/pending-edits.ts';
import type { Workspaces } from '../workspace/workspaces.ts';

type WorkspaceChannel =
  | 'workspace:open'
  | 'workspace:refresh'
  | 'workspace:network'
  | 'workspace:query'
  | 'workspace:saveDraft'
  | 'workspace:discardDraft'
  | 'queries:save'
  | 'queries:resolvePending';

export function workspaceHandlers(
  accounts: AccountRegistry,
  workspaces: Workspaces,
  activity: ActivityLog,
  now: () => Date = () => new Date(),
): Pick<Handlers, WorkspaceChannel> {
  const known = (accountId: string) => accounts.get(accountId) !== null;

  return {
    'workspace:open': async ({ accountId }) => (known(accountId) ? ok(workspaces.open(accountId)) : noSuchAccount(accountId)),

    'workspace:refresh': async ({ accountId }) => (known(accountId) ? ok(await workspaces.refresh(accountId)) : noSuchAccount(accountId)),

    'workspace:network': async ({ online }) => {
      if (online) workspaces.networkBack();
      return ok({});
    },

    'workspace:query': async ({ accountId, queryId }) => (known(accountId) ? ok(workspaces.store(accountId).query(queryId)) : noSuchAccount(accountId)),

    'workspace:saveDraft': async ({ accountId, draft }) => {
      if (!known(accountId)) return noSuchAccount(accountId);
      const updatedAt = workspaces.saveDraft(accountId, draft);
      // A new query to create as soon as the service answers: it may answer already.
      if (draft.createWhenOnline && 'newId' in draft.key) void workspaces.refresh(accountId);
      return ok({ updatedAt });
    },

    'workspace:discardDraft': async ({ accountId, key }) => {
      if (!known(accountId)) return noSuchAccount(accountId);
      workspaces.discardDraft(accountId, key);
      return ok({});
    },

    'queries:save': async ({ accountId, queryId, baseVersion, edit }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
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
    },

    'queries:resolvePending': async ({ accountId, queryId, choice }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
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
    },
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
  const theirs = current.ok ? toQueryDetail(current.value) : (pending.theirs ?? workspaces.store(accountId).query(queryId)?.query ?? null);
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
  const read = await client.queries.get(created.value);
  return read.ok ? ok(toQueryDetail(read.value)) : serviceFailure(read.error);
}
