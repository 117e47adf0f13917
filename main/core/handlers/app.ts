import { ok } from '../../contract/index.ts';
import type { Handlers } from '../ipc/dispatcher.ts';

export interface AppHandlerOptions {
  /** Hands a checked https link to the system's browser; absent where the page is the browser (the browser host). */
  openUrl?: (url: string) => void;
}

export function appHandlers(options: AppHandlerOptions): Pick<Handlers, 'app:openUrl'> {
  const { openUrl } = options;
  return {
    'app:openUrl': async ({ url }) => {
      if (!openUrl) return ok({ opened: false });
      openUrl(url);
      return ok({ opened: true });
    },
  };
}
