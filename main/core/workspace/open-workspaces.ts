import type { EventName, EventPayload } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { ActivityLog } from '../logging/activity-log.ts';
import type { KnownRows } from '../tables/known-rows.ts';
import { readTableSummaries } from '../tables/table-summaries.ts';
import { Workspaces } from './workspaces.ts';

// The accounts' workspaces as core opens them: their changes and sync states sent to the window
// and logged, and an account back online resuming its interrupted downloads.

export function openWorkspaces(
  emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void,
  parts: { dir: string; accounts: AccountRegistry; activity: ActivityLog; cache: ResultCache; knownRows: KnownRows },
): Workspaces {
  const { activity, cache, knownRows } = parts;
  return new Workspaces({
    dir: parts.dir,
    accounts: parts.accounts,
    onChanged: (snapshot) => emit('workspace:changed', snapshot),
    onSync: (state) => {
      activity.sync(state);
      emit('workspace:sync', state);
      if (state.status === 'online') void cache.resumeInterrupted(state.accountId).catch(() => undefined);
    },
    onConflict: (accountId, pending) => activity.conflict(accountId, pending),
    readTables: (accountId, client) => readTableSummaries(client, knownRows, accountId),
  });
}
