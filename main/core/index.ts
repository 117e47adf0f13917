import { join } from 'node:path';
import type { ChannelName, ContractError, EventName, EventPayload, ExecutionRecord, ScheduleNotice } from '../contract/index.ts';
import { AccountSettings, defaultAccountSettings } from './accounts/profiles.ts';
import { createAccountRegistry, type AccountRegistry, type LocalService } from './accounts/registry.ts';
import { CacheSettings, defaultCacheSettings } from './cache/cache-settings.ts';
import { openedOnUse } from './cache/opened-on-use.ts';
import { openResultCache, type ResultCache } from './cache/result-cache.ts';
import { openExecutionRecords, type ExecutionRecords } from './executions/history.ts';
import { paceOf } from './executions/poll-pace.ts';
import { statusAfterExecute } from './executions/snapshot.ts';
import { createExecutionWatcher, type ExecutionWatcher } from './executions/watcher.ts';
import type { ExportDestinations } from './export/destination.ts';
import { createExportRuns, type ExportRuns } from './export/exports.ts';
import { accountHandlers } from './handlers/accounts.ts';
import { appHandlers } from './handlers/app.ts';
import { executionHandlers, type Viewing } from './handlers/executions.ts';
import { freshnessHandlers } from './handlers/freshness.ts';
import { localsqlHandlers } from './handlers/localsql.ts';
import { queryHandlers } from './handlers/queries.ts';
import { resultHandlers } from './handlers/results.ts';
import { settingsHandlers } from './handlers/settings.ts';
import { tableHandlers } from './handlers/tables.ts';
import { uiHandlers } from './handlers/ui.ts';
import { usageHandlers } from './handlers/usage.ts';
import { workspaceHandlers } from './handlers/workspace.ts';
import type { Handlers } from './ipc/dispatcher.ts';
import { LocalSql } from './local-sql/local-sql.ts';
import { ActivityLog } from './logging/activity-log.ts';
import { createLogger, type Logger } from './logging/logger.ts';
import { coreSchedules } from './schedules/core-schedules.ts';
import type { Clock } from './schedules/scheduler.ts';
import { KeyVault } from './secrets/key-vault.ts';
import { KEYCHAIN_SERVICE, osKeychain } from './secrets/os-keychain.ts';
import type { Fetch, ServiceError } from './service-client/index.ts';
import { openAppSettings, StoredAppSettings, type AppSettingsState } from './settings/app-settings.ts';
import { jsonFileStore, type SettingsStore } from './settings/settings-store.ts';
import { KnownRows } from './tables/known-rows.ts';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './tables/table-upload.ts';
import { UploadSessions } from './tables/upload-sessions.ts';
import { openUsage, type Usage } from './usage/usage.ts';
import { openWorkspaces } from './workspace/open-workspaces.ts';
import { UiState } from './workspace/ui-state.ts';
import type { Workspaces } from './workspace/workspaces.ts';

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
  localService: LocalService;
  emit: Emit;
  /** Where core keeps its own files: account profiles (unless `accountSettings` is given), the execution history. */
  dataDir: string;
  /** Where account profiles are kept; a JSON file in `dataDir` by default (the Electron host uses electron-store). */
  accountSettings?: SettingsStore<AccountSettings>;
  /** Where API keys are kept; the OS keychain by default. */
  keyVault?: KeyVault;
  /** An execution this app started has ended (the Electron host shows a desktop notification). */
  onExecutionFinished?: (finished: FinishedExecution) => void;
  /** Where the cache's budget setting is kept; a JSON file in `dataDir` by default (the Electron host uses electron-store). */
  cacheSettings?: SettingsStore<CacheSettings>;
  /** Where exports are written: a save dialog in the Electron host, a download URL in the browser host. */
  exportDestinations?: ExportDestinations;
  /** When a table upload goes in parts, and how large they are; the service's limits by default. */
  uploadLimits?: UploadLimits;
  /** How requests reach services other than the embedded one (Electron's net.fetch, a proxy-aware fetch); Node's fetch by default. */
  fetch?: Fetch;
  /** The app's settings, opened by the host (it applies some itself); a JSON file in `dataDir` by default. */
  appSettings?: AppSettingsState;
  /** Where the host keeps its data, logs and settings, for the About section; `dataDir` and its files by default. */
  paths?: { dataDir: string; logsDir: string; settingsFile: string };
  /** The app's log, which keys are masked in; a log in `paths.logsDir` by default. */
  logger?: Logger;
  /** Opens a folder in the system's file manager (Electron); answers an error message or null. */
  openFolder?: (path: string) => Promise<string | null>;
  /** Opens an https link in the system's browser (Electron); the browser host's page opens links itself. */
  openUrl?: (url: string) => void;
  /** The time schedules keep; the system's by default. */
  clock?: Clock;
  /** A scheduled refresh ended with news (the Electron host shows a desktop notification). */
  onScheduleNotice?: (notice: ScheduleNotice) => void;
}

export interface Core {
  handlers: Handlers;
  /** For the host's dispatcher: a refused payload of a request the day's log should hold (an export). */
  onInvalidRequest(channel: ChannelName, payload: unknown, error: ContractError): void;
  dispose(): Promise<void>;
}

export { KEYCHAIN_SERVICE } from './secrets/os-keychain.ts';

export async function createCore(given: CoreOptions): Promise<Core> {
  const schedules = coreSchedules(given);
  const options = { ...given, emit: schedules.seeing(given.emit) };
  const paths = options.paths ?? {
    dataDir: options.dataDir,
    logsDir: join(options.dataDir, 'logs'),
    settingsFile: join(options.dataDir, 'settings.json'),
  };
  const logger = options.logger ?? createLogger({ dir: paths.logsDir });
  const vault = options.keyVault ?? new KeyVault(osKeychain(KEYCHAIN_SERVICE));
  const settings =
    options.accountSettings ?? jsonFileStore(join(options.dataDir, 'accounts.json'), AccountSettings, defaultAccountSettings);
  // every attempt of an account's client tells its workspace whether the service answered; the
  // workspaces are made after the clients, hence the indirection
  const reach = { observe: (_accountId: string, _failure: ServiceError | null): void => undefined };
  const history = schedules.observing(openExecutionRecords(options.dataDir));
  const usage = openUsage(options.dataDir, history);
  const accounts = await createAccountRegistry({
    localService: options.localService,
    settings,
    vault,
    fetch: options.fetch,
    onKey: logger.addSecret,
    onReach: (accountId, failure) => reach.observe(accountId, failure),
    meter: usage.meter,
  });
  const activity = new ActivityLog(logger, (accountId) => accounts.get(accountId)?.account.label ?? accountId);
  const viewing: { current: Viewing | null } = { current: null };
  const appSettings = options.appSettings ?? openAppSettings(jsonFileStore(paths.settingsFile, StoredAppSettings, () => ({})));
  const watcher = watchExecutions(options, { accounts, history, appSettings, viewing });
  const cacheSettings =
    options.cacheSettings ?? jsonFileStore(join(options.dataDir, 'cache-settings.json'), CacheSettings, defaultCacheSettings);
  const cache = openCache(options, cacheSettings, activity, history);
  const exports = openExports(options, activity);
  const uploads = new UploadSessions({
    dir: join(options.dataDir, 'uploads'),
    limits: options.uploadLimits ?? DEFAULT_UPLOAD_LIMITS,
    report: (progress) => options.emit('tables:uploadProgress', progress),
  });
  await uploads.clear();
  const workspacesDir = join(options.dataDir, 'workspaces');
  const ui = new UiState(workspacesDir);
  const knownRows = new KnownRows(join(options.dataDir, 'table-rows.json'));
  const workspaces = openWorkspaces(options.emit, { dir: workspacesDir, accounts, activity, cache, knownRows });
  reach.observe = (accountId, failure) => workspaces.observe(accountId, failure);
  const localSql = new LocalSql({ cache, history, dir: join(options.dataDir, 'cache', 'local-sql') });
  const parts = { accounts, vault, history, viewing, watcher, cache, cacheSettings, exports, uploads, knownRows, workspaces, ui, localSql };
  const handlers = coreHandlers(options, { ...parts, activity, appSettings, logger, paths, usage });

  return {
    handlers: { ...handlers, ...schedules.open({ handlers, accounts, history, cache }) },
    onInvalidRequest(channel, payload, error) {
      if (channel === 'results:export') activity.exportRefused(typeof payload === 'object' && payload !== null ? payload : {}, error);
    },
    async dispose() {
      schedules.dispose();
      workspaces.dispose();
      watcher.dispose();
      await exports.dispose();
      await localSql.close();
      await cache.close();
      await uploads.clear();
    },
  };
}

function openExports(options: CoreOptions, activity: ActivityLog): ExportRuns {
  return createExportRuns({
    emit: (progress) => {
      activity.exportProgress(progress);
      options.emit('results:exportProgress', progress);
    },
    scratchDir: join(options.dataDir, 'exports'),
  });
}

/** Watches the runs this app starts, and again those still going when it last closed. */
function watchExecutions(
  options: CoreOptions,
  {
    accounts,
    history,
    appSettings,
    viewing,
  }: { accounts: AccountRegistry; history: ExecutionRecords; appSettings: AppSettingsState; viewing: { current: Viewing | null } },
): ExecutionWatcher {
  const watcher = createExecutionWatcher({
    pace: (accountId) => paceOf(accountId, appSettings.current().poll),
    emit: (update) => {
      options.emit('execution:update', update);
      const finished = history.observe(update);
      if (finished === null) return;
      const shown = viewing.current;
      const isViewed = shown?.accountId === finished.accountId && shown.executionId === finished.executionId;
      options.onExecutionFinished?.({ record: finished, isViewed });
    },
  });
  for (const record of history.unfinished()) {
    const entry = accounts.get(record.accountId);
    if (entry?.client == null) continue;
    const status = { ...statusAfterExecute(record.executionId, record.state, record.queryId), submittedAt: record.submittedAt };
    watcher.watch(record.accountId, entry.client, status, Date.parse(record.submittedAt));
  }
  return watcher;
}

/** The result cache, opened at its first use: the hosts' first screen does without it. */
function openCache(
  options: CoreOptions,
  cacheSettings: SettingsStore<CacheSettings>,
  activity: ActivityLog,
  history: ExecutionRecords,
): ResultCache {
  // a cache that cannot open fails each request that needs it, which the hosts log with its channel
  return openedOnUse(() =>
    openResultCache({
      dir: join(options.dataDir, 'cache'),
      budgetBytes: cacheSettings.read().budgetBytes,
      onStatus: (status) => {
        activity.download(status);
        options.emit('results:cacheStatus', status);
      },
      onResumed: (accountId, executionId, fromRow) => activity.downloadResumed(accountId, executionId, fromRow),
      knownRowCount: (accountId, executionId) => history.find(accountId, executionId)?.result?.totalRowCount ?? null,
    }),
  );
}

interface CoreParts {
  accounts: AccountRegistry;
  vault: KeyVault;
  history: ExecutionRecords;
  viewing: { current: Viewing | null };
  watcher: ExecutionWatcher;
  cache: ResultCache;
  cacheSettings: SettingsStore<CacheSettings>;
  exports: ExportRuns;
  uploads: UploadSessions;
  knownRows: KnownRows;
  workspaces: Workspaces;
  ui: UiState;
  localSql: LocalSql;
  activity: ActivityLog;
  appSettings: AppSettingsState;
  logger: Logger;
  paths: { dataDir: string; logsDir: string; settingsFile: string };
  usage: Usage;
}

/** Every channel's handler, each prefix's from its own file (the schedules' are opened over these). */
function coreHandlers(options: CoreOptions, parts: CoreParts): Omit<Handlers, `schedules:${string}`> {
  const { accounts, history, cache, workspaces, ui, activity, watcher, viewing } = parts;
  return {
    ...appHandlers({ openUrl: options.openUrl }),
    ...accountHandlers(accounts, parts.vault, async (accountId) => {
      history.forgetAccount(accountId);
      parts.usage.forget(accountId);
      // an entry that cannot be dropped now is still evicted later, by age and budget
      cache.forgetAccount(accountId).catch(() => undefined);
      ui.forget(accountId);
      // the answer waits for the workspace's folder: what the window is told is gone is gone from disk
      await workspaces.forget(accountId).catch(() => undefined);
    }),
    ...queryHandlers(accounts, workspaces, activity),
    ...executionHandlers({ accounts, watcher, history, cache, workspaces, setViewing: (next) => (viewing.current = next) }),
    ...resultHandlers({
      accounts,
      cache,
      cacheSettings: parts.cacheSettings,
      exports: parts.exports,
      destinations: options.exportDestinations,
      activity,
    }),
    ...tableHandlers(accounts, parts.uploads, parts.knownRows, workspaces),
    ...uiHandlers(accounts, ui),
    ...workspaceHandlers(accounts, workspaces),
    ...settingsHandlers({
      settings: parts.appSettings,
      about: { version: options.version, host: options.host, cacheDir: join(options.dataDir, 'cache'), ...parts.paths },
      cache,
      logger: parts.logger,
      accounts: () => accounts.list(),
      openFolder: options.openFolder ?? null,
    }),
    ...freshnessHandlers({ accounts, cache, history, ui }),
    ...usageHandlers({ usage: parts.usage.log, settings: parts.usage.settings, history }),
    ...localsqlHandlers(accounts, parts.localSql),
  };
}
