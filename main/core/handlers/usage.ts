import { ok } from '../../contract/index.ts';
import type { ExecutionRecords } from '../executions/history.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { UsageLog } from '../usage/usage-log.ts';
import type { UsageSettingsState } from '../usage/usage-settings.ts';

// The usage channels: the account's rates and the confirm size, and the usage page's report.

export interface UsageHandlerOptions {
  usage: UsageLog;
  settings: UsageSettingsState;
  history: ExecutionRecords;
  now?: () => Date;
}

/** Each query's name as its newest run in the history knew it. */
function queryNames(history: ExecutionRecords, accountId: string): (queryId: number) => string | null {
  let names: Map<number, string> | null = null;
  return (queryId) => {
    if (names === null) {
      names = new Map();
      for (const record of history.all()) {
        if (record.accountId === accountId && record.queryName !== undefined && !names.has(record.queryId))
          names.set(record.queryId, record.queryName);
      }
    }
    return names.get(queryId) ?? null;
  };
}

export function usageHandlers(options: UsageHandlerOptions): Pick<Handlers, 'usage:settings' | 'usage:report'> {
  const { usage, settings, history, now = () => new Date() } = options;
  return {
    'usage:settings': async ({ accountId, ...changes }) =>
      ok(
        changes.rates === undefined && changes.confirmDatapoints === undefined
          ? settings.of(accountId)
          : settings.change(accountId, changes),
      ),

    'usage:report': async ({ accountId, month }) => {
      const { sums, skipped } = usage.month(month);
      return ok(
        sums.report({
          accountId,
          month,
          rates: settings.of(accountId).rates,
          skipped,
          months: usage.months(),
          nameOf: queryNames(history, accountId),
          now: now(),
        }),
      );
    },
  };
}
