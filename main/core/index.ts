import type { EventName, EventPayload } from '../contract/index.ts';
import { createAccountRegistry } from './accounts/registry.ts';
import { createExecutionWatcher } from './executions/watcher.ts';
import { appHandlers } from './handlers/app.ts';
import { executionHandlers } from './handlers/executions.ts';
import { queryHandlers } from './handlers/queries.ts';
import type { Handlers } from './ipc/dispatcher.ts';

// Everything the app does, in plain Node, behind the contract's handlers. Each host (Electron,
// browser) creates one core, routes requests to its handlers and carries its events.

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface CoreOptions {
  host: 'electron' | 'web';
  version: string;
  /** The embedded service and its key. Core keeps the key in memory only. */
  localService: { baseUrl: string; apiKey: string | null };
  emit: Emit;
  /** Where core may keep its own files (the result cache, later). */
  dataDir: string;
}

export interface Core {
  handlers: Handlers;
  dispose(): Promise<void>;
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const accounts = createAccountRegistry(options.localService);
  const watcher = createExecutionWatcher({ emit: (update) => options.emit('execution:update', update) });
  return {
    handlers: {
      ...appHandlers({ host: options.host, version: options.version, accounts }),
      ...queryHandlers(accounts),
      ...executionHandlers(accounts, watcher),
    },
    async dispose() {
      watcher.dispose();
    },
  };
}
