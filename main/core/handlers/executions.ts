import { ok } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { statusAfterExecute } from '../executions/snapshot.ts';
import type { ExecutionWatcher } from '../executions/watcher.ts';
import { findAccount, isFailure, serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import { readRowRange } from '../results/read-range.ts';

export function executionHandlers(
  accounts: AccountRegistry,
  watcher: ExecutionWatcher,
): Pick<Handlers, 'executions:run' | 'executions:get' | 'executions:cancel' | 'results:getRows'> {
  return {
    'executions:run': async ({ accountId, queryId, parameters }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      const startedAtMs = Date.now();
      const started = await entry.client.executions.execute({ queryId, queryParameters: parameters });
      if (!started.ok) return serviceFailure(started.error);
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

    'results:getRows': async ({ accountId, executionId, startRow, endRow }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      return readRowRange(entry.client, executionId, startRow, endRow);
    },
  };
}
