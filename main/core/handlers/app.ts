import { ok } from '../../contract/index.ts';
import type { Handlers } from '../ipc/dispatcher.ts';

export interface AppHandlerOptions {
  host: 'electron' | 'web';
  version: string;
  /** Hands a checked https link to the system's browser; absent where the page is the browser (the browser host). */
  openUrl?: (url: string) => void;
}

export function appHandlers(options: AppHandlerOptions): Pick<Handlers, 'app:info' | 'app:openUrl'> {
  const { host, version, openUrl } = options;
  return {
    'app:info': async () => ok({ version, host }),
    'app:openUrl': async ({ url }) => {
      if (!openUrl) return ok({ opened: false });
      openUrl(url);
      return ok({ opened: true });
    },
  };
}
