import { parentPort, workerData } from 'node:worker_threads';
import { startService, type RunningService, type ServiceOptions } from '../index.ts';
import type { FromServiceThread, ToServiceThread } from './thread-messages.ts';

// The service in a worker thread of its own (see start-thread.ts): started with the options it is
// given, closed when told, after which nothing of it is left to keep the thread alive.

const port = parentPort!;
const say = (message: FromServiceThread) => port.postMessage(message);

let service: RunningService;
try {
  service = await startService(workerData as ServiceOptions);
} catch (error) {
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  say({ kind: 'failed', name: error instanceof Error ? error.constructor.name : name, message });
  port.close();
  process.exit(0);
}
say({ kind: 'started', baseUrl: service.baseUrl, demoApiKey: service.demoApiKey });
port.on('message', async (message: ToServiceThread) => {
  if (message.kind !== 'close') return;
  await service.close();
  say({ kind: 'closed' });
  port.close();
});
