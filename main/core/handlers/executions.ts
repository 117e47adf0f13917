import { ok } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { ExecutionHistory } from '../executions/history.ts';
import { statusAfterExecute } from '../executions/snapshot.ts';
import type { ExecutionWatcher } from '../executions/watcher.ts';
import { findAccount, isFailure, serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';

type ExecutionChannels = 'executions:run' | 'executions:get' | 'executions:cancel' | 'executions:list' | 'executions:viewing';

export interface Viewing {
  accountId: string;
  executionId: string;
}

export function executionHandlers(options: {
  accounts: AccountRegistry;
  watcher: ExecutionWatcher;
  history: ExecutionHistory;
  /** Told which execution the UI shows, so a finished one elsewhere can be notified. */
  setViewing: (viewing: Viewing | null) => void;
}): Pick<Handlers, ExecutionChannels> {
  const { accounts, watcher, history } = options;
  return {
    'executions:run': async ({ accountId, queryId, parameters = {} }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      const startedAtMs = Date.now();
      const started = await entry.client.executions.execute({ queryId, queryParameters: parameters });
      if (!started.ok) return serviceFailure(started.error);
      history.started(accountId, started.value.executionId, queryId, parameters);
      const status = statusAfterExecute(started.value.executionId, started.value.state, queryId);
      return ok(watcher.watch(accountId, entry.client, status, startedAtMs));
    },

    'executions:get': async ({ accountId, executionId }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      const known = watcher.latest(accountId, executionId);
      if (known) return ok(known);
      // Not started by this app run: read it once, and keep watching it if it is still going.
      const read = await entry.client.executions.status(executionId);
      if (!read.ok) return serviceFailure(read.error);
      const submittedAtMs = read.value.submittedAt === null ? Number.NaN : Date.parse(read.value.submittedAt);
      return ok(watcher.watch(accountId, entry.client, read.value, Number.isNaN(submittedAtMs) ? Date.now() : submittedAtMs));
    },

    'executions:cancel': async ({ accountId, executionId }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      const cancelled = await entry.client.executions.cancel(executionId);
      if (!cancelled.ok) return serviceFailure(cancelled.error);
      watcher.pollNow(accountId, executionId);
      return ok({ cancelled: cancelled.value });
    },

    'executions:list': async ({ accountId, limit = 50 }) => ok({ executions: history.list(accountId, limit) }),

    'executions:viewing': async ({ viewing }) => {
      options.setViewing(viewing);
      return ok({});
    },
  };
}
