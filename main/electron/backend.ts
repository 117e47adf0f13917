import { join } from 'node:path';
import { createCore, type Core } from '../core/index.ts';
import { startService } from '../service/index.ts';
import type { EventName } from '../contract/names.ts';

/**
 * The embedded service and the core on top of it, in this process, as the browser host has them.
 * Each keeps its files in its own folder under `dataDir`, apart from Chromium's.
 */
export async function startBackend(options: {
  dataDir: string;
  version: string;
  emit: (event: EventName, payload: unknown) => void;
}): Promise<Core> {
  const service = await startService({ dataDir: join(options.dataDir, 'service'), port: 0 });
  let core: Core;
  try {
    core = await createCore({
      host: 'electron',
      version: options.version,
      localService: { baseUrl: service.baseUrl, apiKey: service.demoApiKey },
      emit: options.emit,
      dataDir: join(options.dataDir, 'core'),
    });
  } catch (error) {
    await service.close();
    throw error;
  }
  return {
    handlers: core.handlers,
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
