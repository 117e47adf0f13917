import { parentPort, workerData } from 'node:worker_threads';
import { startService, type RunningService, type ServiceOptions } from '../index.ts';
import { shrinkHeapAtRest } from './shrink-heap.ts';
import type { FromServiceThread } from './thread-messages.ts';

// The service in a worker thread of its own (see start-thread.ts): started with the options it is
// given, closed when told, after which nothing of it is left to keep the thread alive.

const port = parentPort!;
const say = (message: FromServiceThread) => port.postMessage(message);

let service: RunningService;
try {
  service = await startService(workerData as ServiceOptions);
} catch (error) {
  const failure = error instanceof Error ? error : new Error(String(error));
  say({ kind: 'failed', name: failure.constructor.name, message: failure.message });
  port.close();
  process.exit(0);
}
say({ kind: 'started', baseUrl: service.baseUrl, demoApiKey: service.demoApiKey });
const stopShrinking = shrinkHeapAtRest();
// the only thing it is told (ToServiceThread): close
port.once('message', async () => {
  stopShrinking();
  await service.close();
  port.close();
});
