import { join } from 'node:path';
import type { EventName, EventPayload, ExecutionRecord } from '../contract/index.ts';
import { AccountSettings, defaultAccountSettings } from './accounts/profiles.ts';
import { createAccountRegistry } from './accounts/registry.ts';
import { createExecutionHistory } from './executions/history.ts';
import { createExecutionWatcher } from './executions/watcher.ts';
import { accountHandlers } from './handlers/accounts.ts';
import { appHandlers } from './handlers/app.ts';
import { executionHandlers, type Viewing } from './handlers/executions.ts';
import { queryHandlers } from './handlers/queries.ts';
import type { Handlers } from './ipc/dispatcher.ts';
import { KeyVault } from './secrets/key-vault.ts';
import { osKeychain } from './secrets/os-keychain.ts';
import { jsonFileStore, type SettingsStore } from './settings/settings-store.ts';
import { statusAfterExecute } from './executions/snapshot.ts';

// Everything the app does, in plain Node, behind the contract's handlers. Each host (Electron,
// browser) creates one core, routes requests to its handlers and carries its events.

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface FinishedExecution {
  record: ExecutionRecord;
  /** Whether the UI said it shows this execution (`executions:viewing`). */
  isViewed: boolean;
}

export interface CoreOptions {
  host: 'electron' | 'web';
  version: string;
  /** The embedded service and its key. Core keeps the key in memory only. */
  localService: { baseUrl: string; apiKey: string | null };
  emit: Emit;
  /** Where core keeps its own files: account profiles (unless `accountSettings` is given), the execution history. */
  dataDir: string;
  /** Where account profiles are kept; a JSON file in `dataDir` by default (the Electron host uses electron-store). */
  accountSettings?: SettingsStore<AccountSettings>;
  /** Where API keys are kept; the OS keychain by default. */
  keyVault?: KeyVault;
  /** An execution this app started has ended (the Electron host shows a desktop notification). */
  onExecutionFinished?: (finished: FinishedExecution) => void;
}

export interface Core {
  handlers: Handlers;
  dispose(): Promise<void>;
}

export const KEYCHAIN_SERVICE = 'Querydesk';

export async function createCore(options: CoreOptions): Promise<Core> {
  const vault = options.keyVault ?? new KeyVault(osKeychain(KEYCHAIN_SERVICE));
  const settings = options.accountSettings ?? jsonFileStore(join(options.dataDir, 'accounts.json'), AccountSettings, defaultAccountSettings);
  const accounts = await createAccountRegistry({ localService: options.localService, settings, vault });
  const history = createExecutionHistory(options.dataDir);
  let viewing: Viewing | null = null;
  const watcher = createExecutionWatcher({
    emit: (update) => {
      options.emit('execution:update', update);
      const finished = history.observe(update);
      if (finished === null) return;
      const isViewed = viewing?.accountId === finished.accountId && viewing.executionId === finished.executionId;
      options.onExecutionFinished?.({ record: finished, isViewed });
    },
  });

  // Runs still going when the app last closed: watched again from where they were.
  for (const record of history.unfinished()) {
    const entry = accounts.get(record.accountId);
    if (entry?.client == null) continue;
    const status = { ...statusAfterExecute(record.executionId, record.state, record.queryId), submittedAt: record.submittedAt };
    watcher.watch(record.accountId, entry.client, status, Date.parse(record.submittedAt));
  }

  return {
    handlers: {
      ...appHandlers({ host: options.host, version: options.version }),
      ...accountHandlers(accounts, vault, (accountId) => history.forgetAccount(accountId)),
      ...queryHandlers(accounts),
      ...executionHandlers({ accounts, watcher, history, setViewing: (next) => (viewing = next) }),
    },
    async dispose() {
      watcher.dispose();
    },
  };
}
