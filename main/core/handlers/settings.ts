import { fail, ok, type AboutInfo } from '../../contract/index.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { AppSettingsState } from '../settings/app-settings.ts';

export function settingsHandlers(settings: AppSettingsState, about: AboutInfo): Pick<Handlers, 'settings:get' | 'settings:set'> {
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
  };
}
