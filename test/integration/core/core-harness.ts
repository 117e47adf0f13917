import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ChannelName,
  ChannelRequest,
  ChannelResponse,
  EventName,
  EventPayload,
  ExecutionUpdate,
  LocalQuery,
  Result,
} from '../../../main/contract/index.ts';
import { createCore, type Core, type CoreOptions, type FinishedExecution } from '../../../main/core/index.ts';
import { createDispatcher } from '../../../main/core/ipc/dispatcher.ts';
import { startService, type ServiceOptions } from '../../../main/service/index.ts';

export { memoryKeychain } from '../../unit/core/memory-keychain.ts';

// The embedded service in a temporary folder, and cores on top of it that can be closed and
// created again on the same data folder, as an app restart does.

export interface Harness {
  dir: string;
  coreDir: string;
  baseUrl: string;
  demoApiKey: string | null;
  updates: ExecutionUpdate[];
  finished: FinishedExecution[];
  startCore(options?: Partial<CoreOptions>): Promise<Core>;
  /** Resolves with the first finished update of the execution seen by any core of this harness. */
  finishedUpdate(executionId: string): Promise<ExecutionUpdate>;
  close(): Promise<void>;
}

export async function startHarness(serviceOptions: Omit<ServiceOptions, 'dataDir'> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'querydesk-core-'));
  const service = await startService({ ...serviceOptions, dataDir: join(dir, 'service'), port: 0 });
  const cores: Core[] = [];
  const updates: ExecutionUpdate[] = [];
  const finished: FinishedExecution[] = [];
  const coreDir = join(dir, 'core');
  return {
    dir,
    coreDir,
    baseUrl: service.baseUrl,
    demoApiKey: service.demoApiKey,
    updates,
    finished,
    async startCore(options = {}) {
      const core = await createCore({
        host: 'web',
        version: '0.0.0',
        localService: { baseUrl: service.baseUrl, apiKey: service.demoApiKey },
        emit: <E extends EventName>(event: E, payload: EventPayload<E>) => {
          if (event === 'execution:update') updates.push(payload as ExecutionUpdate);
        },
        onExecutionFinished: (done) => finished.push(done),
        dataDir: coreDir,
        ...options,
      });
      cores.push(core);
      return core;
    },
    async finishedUpdate(executionId) {
      for (;;) {
        const done = updates.find((u) => u.executionId === executionId && u.isFinished);
        if (done) return done;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      for (const core of cores) await core.dispose();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every file under `dir`, as text: for checking that no secret was written anywhere. */
export function filesUnder(dir: string): string[] {
  return readdirRecursive(dir).map((path) => readFileSync(path, 'latin1'));
}

function readdirRecursive(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? readdirRecursive(path) : entry.isFile() ? [path] : [];
  });
}

/** A core's handlers as a host calls them: through the dispatcher, so payloads are validated first. */
export function caller(core: Core) {
  const dispatch = createDispatcher({ handlers: core.handlers, isTrustedSender: () => true, onInvalidRequest: core.onInvalidRequest });
  return async <C extends ChannelName>(channel: C, payload: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>> =>
    (await dispatch(channel, payload, null)) as Result<ChannelResponse<C>>;
}

type Call = <C extends ChannelName>(channel: C, payload: ChannelRequest<C>) => Promise<Result<ChannelResponse<C>>>;

/** The account's queries as the window lists them: a refresh from the service, then its workspace. */
export async function listedQueries(call: Call, accountId: string): Promise<LocalQuery[]> {
  const refreshed = await call('workspace:refresh', { accountId });
  if (!refreshed.ok) throw new Error(refreshed.error.message);
  const opened = await call('workspace:open', { accountId });
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.data.queries;
}
