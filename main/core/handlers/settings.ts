import { fail, ok, type AboutInfo } from '../../contract/index.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { AppSettingsState } from '../settings/app-settings.ts';

export function settingsHandlers(settings: AppSettingsState, about: AboutInfo, cache: ResultCache): Pick<Handlers, 'settings:get' | 'settings:set' | 'settings:clearCache'> {
  return {
    'settings:get': async () => ok({ settings: settings.current(), about }),
    'settings:set': async (changes) => {
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      try {
        return ok({ settings: await settings.update(defined), about });
      } catch (error) {
        return fail('internal', `The settings could not be saved or applied: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    'settings:clearCache': async () => {
      await cache.clear();
      return ok(await cache.usage());
    },
  };
}
