import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  CacheStatus,
  ChannelName,
  ChannelRequest,
  ChannelResponse,
  EventName,
  EventPayload,
  ExecutionUpdate,
  ExportProgress,
  Result,
} from '../../../../main/contract/index.ts';
import { createCore, type Core, type CoreOptions } from '../../../../main/core/index.ts';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startService, type RunningService, type ServiceOptions } from '../../../../main/service/index.ts';
import { memoryKeychain } from '../../../unit/core/memory-keychain.ts';

// The embedded service and a core on top of it, in a temporary folder; the service can be stopped
// alone (to go offline) and the core restarted on the same folder.

export interface CacheHarness {
  dir: string;
  service: RunningService | null;
  core: Core;
  events: { event: EventName; payload: unknown }[];
  call<C extends ChannelName>(channel: C, payload: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>>;
  /** Runs a demo query by name and resolves with its execution id once it has finished. */
  run(queryName: string): Promise<string>;
  /** Runs SQL text (of no query) and resolves with its execution id once it has finished. */
  runSql(sql: string): Promise<string>;
  /** Asks for the result to be cached and waits until the download has ended and its pages are folded into a table. */
  cacheWhole(executionId: string): Promise<CacheStatus>;
  exportEnded(exportId: string): Promise<ExportProgress>;
  /** Closes the core, runs `between` (the cache file is free then), and opens a new core on the same folder. */
  restartCore(options?: Partial<CoreOptions>, between?: () => Promise<void>): Promise<void>;
  stopService(): Promise<void>;
  close(): Promise<void>;
}

/** A server in front of the service that the core talks to instead (the Dune-shapes stand-in). */
export type Front = (serviceBaseUrl: string) => Promise<{ baseUrl: string; close(): Promise<void> }>;

export async function startCacheHarness(
  serviceOptions: Omit<ServiceOptions, 'dataDir'> = {},
  coreOptions: Partial<CoreOptions> = {},
  front?: Front,
): Promise<CacheHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'querydesk-cache-'));
  const service = await startService({ ...serviceOptions, dataDir: join(dir, 'service'), port: 0 });
  const events: { event: EventName; payload: unknown }[] = [];
  const fronted = await front?.(service.baseUrl);
  const localService = { baseUrl: fronted?.baseUrl ?? service.baseUrl, apiKey: service.demoApiKey };
  const keyVault = new KeyVault(memoryKeychain());
  const makeCore = (options: Partial<CoreOptions>) =>
    createCore({
      host: 'web',
      version: '0.0.0',
      localService,
      emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void events.push({ event, payload }),
      dataDir: join(dir, 'core'),
      keyVault,
      ...coreOptions,
      ...options,
    });
  async function finished(run: Result<ExecutionUpdate>): Promise<string> {
    if (!run.ok) throw new Error(run.error.message);
    const { executionId } = run.data;
    await until(() =>
      events.some(
        (e) =>
          e.event === 'execution:update' &&
          (e.payload as ExecutionUpdate).executionId === executionId &&
          (e.payload as ExecutionUpdate).isFinished,
      ),
    );
    return executionId;
  }
  const harness: CacheHarness = {
    dir,
    service,
    core: await makeCore({}),
    events,
    async call(channel, payload) {
      const dispatch = createDispatcher({ handlers: harness.core.handlers, isTrustedSender: () => true });
      return (await dispatch(channel, payload, null)) as never;
    },
    async run(queryName) {
      // only its id is needed: read from the service directly, the way core reaches it
      const listed = await createServiceClient({
        baseUrl: localService.baseUrl,
        apiKey: localService.apiKey ?? '',
        serviceName: 'DUNE',
      }).queries.list();
      if (!listed.ok) throw new Error(listed.error.message);
      const query = listed.data.queries.find((q) => q.name === queryName);
      if (!query) throw new Error(`no demo query ${queryName}`);
      return finished(await harness.call('executions:run', { accountId: 'local', queryId: query.id }));
    },
    async runSql(sql) {
      return finished(await harness.call('executions:runSql', { accountId: 'local', queryId: null, sql }));
    },
    async cacheWhole(executionId) {
      const seen = events.length;
      const started = await harness.call('results:cache', { accountId: 'local', executionId });
      if (!started.ok) throw new Error(started.error.message);
      if (started.data.state !== 'downloading') return started.data;
      let last: CacheStatus | undefined;
      await until(() => {
        last = events
          .slice(seen)
          .filter((e) => e.event === 'results:cacheStatus' && (e.payload as CacheStatus).executionId === executionId)
          .map((e) => e.payload as CacheStatus)
          .findLast((s) => s.state !== 'downloading');
        return last !== undefined;
      });
      // and, read in place until then, its pages are folded into a table (their folder goes once they are)
      const pages = join(dir, 'core', 'cache', 'pages');
      await until(() => !existsSync(pages) || readdirSync(pages).length === 0);
      return last!;
    },
    async exportEnded(exportId) {
      let last: ExportProgress | undefined;
      await until(() => {
        last = events
          .map((e) => e.payload as ExportProgress)
          .findLast((p) => p.exportId === exportId && ['done', 'failed', 'cancelled'].includes(p.state));
        return last !== undefined;
      });
      return last!;
    },
    async restartCore(options = {}, between) {
      await harness.core.dispose();
      try {
        await between?.();
      } finally {
        // a failed check in between fails its own test, not every later one on a closed core
        harness.core = await makeCore(options);
      }
    },
    async stopService() {
      await harness.service?.close();
      harness.service = null;
    },
    async close() {
      await harness.core.dispose();
      await fronted?.close();
      await harness.service?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A response without the field that says where it came from, to compare cache and service answers. */
export function withoutSource<T>(result: Result<T>): unknown {
  if (!result.ok) return result;
  const { fromCache: _, ...data } = result.data as T & { fromCache?: unknown };
  return { ok: true, data };
}

/**
 * The first `rows` rows of a finished result read from the service's pages, then again from the
 * cache once it holds the whole result: the two answers a test of exact values compares, and the
 * cached rows.
 */
export async function readPagesThenCache(harness: CacheHarness, executionId: string, rows: number) {
  const request = { accountId: 'local', executionId, startRow: 0, endRow: rows };
  const fromPages = await harness.call('results:getRows', request);
  const status = await harness.cacheWhole(executionId);
  if (status.state !== 'cached' || status.rowsLoaded !== rows)
    throw new Error(`the result was not cached whole: ${JSON.stringify(status)}`);
  const cached = await harness.call('results:getRows', request);
  if (!cached.ok || cached.data.fromCache === undefined)
    throw new Error(`the rows were not read from the cache: ${JSON.stringify(cached)}`);
  return { fromPages: withoutSource(fromPages), fromCache: withoutSource(cached), rows: cached.data.rows };
}
