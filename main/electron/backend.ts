import { join } from 'node:path';
import type Store from 'electron-store';
import type { ScheduleNotice } from '../contract/index.ts';
import type { EventName } from '../contract/names.ts';
import { AccountSettings, defaultAccountSettings } from '../core/accounts/profiles.ts';
import { CacheSettings, defaultCacheSettings } from '../core/cache/cache-settings.ts';
import type { ExportDestinations } from '../core/export/destination.ts';
import { createCore, KEYCHAIN_SERVICE, type Core, type FinishedExecution } from '../core/index.ts';
import type { Logger } from '../core/logging/logger.ts';
import { KeyVault } from '../core/secrets/key-vault.ts';
import { keepLocalKey, keptLocalKey } from '../core/secrets/local-key.ts';
import { osKeychain } from '../core/secrets/os-keychain.ts';
import type { AppSettingsState } from '../core/settings/app-settings.ts';
import { startServiceThread } from '../service/thread/start-thread.ts';
import { electronFetch } from './network.ts';
import { electronSettingsStore } from './settings-store.ts';

/**
 * The embedded service (in a thread of its own) and the core on top of it, as the browser host has them.
 * Each keeps its files in its own folder under `dataDir`, apart from Chromium's; account profiles
 * go to the app's electron-store settings file.
 */
export async function startBackend(options: {
  dataDir: string;
  logsDir: string;
  version: string;
  settingsFile: Store;
  appSettings: AppSettingsState;
  logger: Logger;
  openFolder: (path: string) => Promise<string | null>;
  openUrl: (url: string) => void;
  emit: (event: EventName, payload: unknown) => void;
  onExecutionFinished: (finished: FinishedExecution) => void;
  onScheduleNotice: (notice: ScheduleNotice) => void;
  exportDestinations: ExportDestinations;
}): Promise<Core> {
  const { settingsFile, appSettings } = options;
  const keyVault = new KeyVault(osKeychain(KEYCHAIN_SERVICE));
  const keptKey = await keptLocalKey(keyVault);
  // before the service starts, so that what it prints is masked from its first line
  options.logger.addSecret(keptKey);
  const service = await startServiceThread(
    { dataDir: join(options.dataDir, 'service'), port: 0, demoApiKey: keptKey ?? undefined },
    {
      // the window goes on, its local account offline, as for a service that cannot be reached
      onCrash: (error) => options.logger.error('The embedded service stopped', error),
      onFallback: (error) => options.logger.warn('The embedded service runs in the main thread', error),
      redact: options.logger.redact,
    },
  );
  let core: Core;
  try {
    await keepLocalKey(keyVault, keptKey, service.demoApiKey);
    core = await createCore({
      host: 'electron',
      keyVault,
      version: options.version,
      localService: { baseUrl: service.baseUrl, apiKey: service.demoApiKey },
      emit: options.emit,
      dataDir: join(options.dataDir, 'core'),
      accountSettings: electronSettingsStore(settingsFile, 'accounts', AccountSettings, defaultAccountSettings),
      cacheSettings: electronSettingsStore(settingsFile, 'cache', CacheSettings, defaultCacheSettings),
      onExecutionFinished: options.onExecutionFinished,
      onScheduleNotice: options.onScheduleNotice,
      exportDestinations: options.exportDestinations,
      appSettings,
      fetch: electronFetch(() => appSettings.current().proxy),
      paths: { dataDir: options.dataDir, logsDir: options.logsDir, settingsFile: settingsFile.path },
      logger: options.logger,
      openFolder: options.openFolder,
      openUrl: options.openUrl,
    });
  } catch (error) {
    await service.close();
    throw error;
  }
  return {
    handlers: core.handlers,
    onInvalidRequest: core.onInvalidRequest,
    // Core first: it may still be talking to the service while it winds down.
    async dispose() {
      try {
        await core.dispose();
      } finally {
        await service.close();
      }
    },
  };
}
