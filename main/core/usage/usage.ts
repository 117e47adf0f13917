import { join } from 'node:path';
import type { ExecutionRecords } from '../executions/history.ts';
import type { ServiceClient } from '../service-client/index.ts';
import { jsonFileStore } from '../settings/settings-store.ts';
import { meteredClient } from './metered-client.ts';
import { openUsageLog, type UsageLog } from './usage-log.ts';
import { defaultUsageSettings, StoredUsageSettings, UsageSettingsState } from './usage-settings.ts';

// The usage record and its settings, opened together from core's data folder, and the meter that
// feeds the record from each account's client.

export interface Usage {
  log: UsageLog;
  settings: UsageSettingsState;
  /** The account's client, counting what it asks of the service. */
  meter(accountId: string, client: ServiceClient): ServiceClient;
  forget(accountId: string): void;
}

export function openUsage(dataDir: string, history: ExecutionRecords): Usage {
  const log = openUsageLog(dataDir);
  const settings = new UsageSettingsState(jsonFileStore(join(dataDir, 'usage-settings.json'), StoredUsageSettings, defaultUsageSettings));
  return {
    log,
    settings,
    meter: (accountId, client) =>
      meteredClient(client, {
        accountId,
        record: (event) => log.record(event),
        // what the history says of a run, for pages read before (or without) its status
        known: (executionId) => {
          const run = history.find(accountId, executionId);
          if (run === null) return null;
          return {
            queryId: run.queryId,
            totalRowCount: run.result?.totalRowCount ?? null,
            columnCount: run.result?.columnNames.length ?? null,
          };
        },
      }),
    forget(accountId) {
      log.forgetAccount(accountId);
      settings.forget(accountId);
    },
  };
}
