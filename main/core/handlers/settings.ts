import { fail, ok, type AboutInfo, type Account } from '../../contract/index.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import { diagnosticsReport } from '../logging/diagnostics.ts';
import type { Logger } from '../logging/logger.ts';
import type { AppSettingsState } from '../settings/app-settings.ts';
import { clause, failureText } from '../words.ts';

type SettingsChannels = 'settings:get' | 'settings:set' | 'settings:clearCache' | 'settings:diagnostics' | 'settings:openLogsFolder';

export interface SettingsHandlerOptions {
  settings: AppSettingsState;
  about: AboutInfo;
  cache: ResultCache;
  logger: Logger;
  accounts: () => Account[];
  /** The host's file manager; null where there is none (the browser host). Resolves to an error message or null. */
  openFolder: ((path: string) => Promise<string | null>) | null;
}

export function settingsHandlers(options: SettingsHandlerOptions): Pick<Handlers, SettingsChannels> {
  const { settings, about, cache, logger } = options;
  return {
    'settings:get': async () => ok({ settings: settings.current(), about }),
    'settings:set': async (changes) => {
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      try {
        return ok({ settings: await settings.update(defined), about });
      } catch (error) {
        logger.error('Saving the settings failed', error);
        return fail('internal', `The settings could not be saved or applied. ${failureText(error)}`);
      }
    },
    'settings:clearCache': async () => {
      await cache.clear();
      logger.info('The results cache was cleared');
      return ok(await cache.usage());
    },
    'settings:diagnostics': async () => {
      const text = diagnosticsReport({ about, settings: settings.current(), accounts: options.accounts(), recent: logger.recent() });
      return ok({ text: logger.redact(text) });
    },
    'settings:openLogsFolder': async () => {
      if (options.openFolder === null)
        return fail('not_found', `The browser cannot open folders on this computer; the logs are in ${about.logsDir}.`);
      const problem = await options.openFolder(about.logsDir);
      return problem === null ? ok({}) : fail('internal', `The logs folder could not be opened (${clause(problem)}).`);
    },
  };
}
