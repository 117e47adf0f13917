import { ok } from '../../contract/index.ts';
import type { Handlers } from '../ipc/dispatcher.ts';

export function appHandlers(options: { host: 'electron' | 'web'; version: string }): Pick<Handlers, 'app:info'> {
  const { host, version } = options;
  return {
    'app:info': async () => ok({ version, host }),
  };
}
