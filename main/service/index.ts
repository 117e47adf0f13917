import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { IDLE_GIVE_BACK_MILLIS } from '../common/memory-budgets.ts';
import { isServiceName, SERVICE_NAME_RULE } from '../common/service-name.ts';
import { AccountStore, type ServiceAccount } from './accounts/account-store.ts';
import { applyAccountsConfig } from './accounts/accounts-config.ts';
import { authenticate } from './accounts/authenticate.ts';
import { ExecutionBudget } from './executions/execution-budget.ts';
import { ExecutionStore } from './executions/execution-store.ts';
import { Executor } from './executions/executor.ts';
import { expireDue } from './executions/expiry.ts';
import { resolveLimits, type LimitOptions } from './executions/plan-limits.ts';
import { hasNewcomerSlot, runningLimit, threadPoolSize } from './executions/running-limit.ts';
import { Sandboxes } from './executions/sql-sandbox.ts';
import type { CompressionMode } from './http/compression.ts';
import { bucketOf, RateLimiter } from './http/rate-limiter.ts';
import { Router } from './http/router.ts';
import { createHttpServer } from './http/server.ts';
import { QueryStore } from './queries/query-store.ts';
import { ResultStore } from './results/result-store.ts';
import { addExecutionRoutes } from './routes/execution-routes.ts';
import { addQueryRoutes } from './routes/query-routes.ts';
import { addQueryWriteRoutes } from './routes/query-write-routes.ts';
import { addResultRoutes } from './routes/result-routes.ts';
import { addTableRoutes } from './routes/table-routes.ts';
import { SampleTables } from './samples/sample-tables.ts';
import { DEMO_HANDLE, demoKeyForRun, seedDemo } from './seed/seed-demo.ts';
import { updateDemoSql } from './seed/update-demo-sql.ts';
import type { ServiceConfig, ServiceDeps } from './service-deps.ts';
import { sweepLeftovers } from './storage/leftovers.ts';
import { openStorage, type Storage } from './storage/open-storage.ts';
import { TableData } from './tables/table-data.ts';
import { prepareTableFiles } from './tables/table-files-upkeep.ts';
import { TableStore } from './tables/table-store.ts';
import { addMillis, nowIso } from './time.ts';

/**
 * The limits (see LimitOptions) are per plan: one value for all plans, or `{free, plus, premium}`
 * with a value for some of them; `resultCapBytes` bounds a result, stored truncated
 * (QUERY_STATE_COMPLETED_PARTIAL) past it.
 */
export interface ServiceOptions extends LimitOptions {
  /** Loopback by default; the service is meant for this machine. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  dataDir: string;
  serviceName?: string;
  maxPageRows?: number;
  /** Executions each context may run at once. */
  executionSlots?: number;
  /** Executions each context may have waiting to start; past it, a new one is refused with a 429. */
  waitingExecutions?: number;
  /** Executions the whole service runs at once; kept below libuv's thread pool (see running-limit.ts). */
  runningExecutions?: number;
  retentionMillis?: number;
  /** Accounts to create or update at start (the `--accounts` file's content); without it a fresh data directory gets the demo account. */
  accounts?: unknown;
  /** The real service's per-plan requests-per-minute limits; off for embedded use. */
  rateLimit?: boolean;
  /** Whether answers are compressed for clients that ask: `auto` (not to one on this machine) by default. */
  compression?: CompressionMode;
  /**
   * A request body that sends nothing for this long, or less than 1 KB in a period this long, is
   * answered 408 (and gives back its upload slot); the rest of a body refused before it was read
   * is read and dropped for this long before the connection is closed. 10 s by default.
   */
  bodyIdleMillis?: number;
  /**
   * The demo account's key as the host kept it from an earlier start (the service keeps only its
   * hash): it stays the key. Without it, a fresh key is made (see demoKeyForRun).
   */
  demoApiKey?: string;
}

export interface RunningService {
  baseUrl: string;
  /** The demo account's key for this run: `options.demoApiKey` when given, else a fresh one; null without a demo account. */
  demoApiKey: string | null;
  close(): Promise<void>;
}

const DAY_MILLIS = 24 * 60 * 60 * 1000;
const EXPIRY_SWEEP_MILLIS = 10 * 60 * 1000;
// A result read within half a minute is likely read again (the grid's next pages), and a context
// that ran an execution likely runs another; one idle longer gives its memory back (see
// ResultFiles.detachIdle and Sandboxes.closeIdle).
const IDLE_MILLIS = IDLE_GIVE_BACK_MILLIS;
// How often the idle is looked for: what went idle is given back at most this long after its
// idle time, so a service busy with queued executions after its last request still shrinks soon
// after they end.
const UPKEEP_TICK_MILLIS = 5_000;

function configOf(options: ServiceOptions): ServiceConfig {
  const serviceName = options.serviceName ?? 'DUNE';
  if (!isServiceName(serviceName)) {
    throw new Error(`serviceName must be ${SERVICE_NAME_RULE}: '${serviceName}'`);
  }
  const running = runningLimit(options.runningExecutions, threadPoolSize());
  return {
    serviceName,
    maxPageRows: options.maxPageRows ?? 30_000,
    executionSlots: options.executionSlots ?? 3,
    waitingExecutions: options.waitingExecutions ?? 10,
    runningExecutions: running,
    newcomerSlot: hasNewcomerSlot(running, threadPoolSize()),
    retentionMillis: options.retentionMillis ?? 90 * DAY_MILLIS,
    ...resolveLimits(options),
    rateLimit: options.rateLimit ?? false,
    bodyIdleMillis: options.bodyIdleMillis ?? 10_000,
    tempDir: join(options.dataDir, 'tmp'),
  };
}

function admitter(limiter: RateLimiter) {
  return (caller: ServiceAccount, method: string, path: string) => limiter.admit(caller, bucketOf(method, path));
}

/** The demo account's key for this run: the one an accounts file gives it, else one kept or made (see demoKeyForRun). */
async function prepareAccounts(accounts: AccountStore, queries: QueryStore, options: ServiceOptions): Promise<string | null> {
  const configured = options.accounts !== undefined ? await applyAccountsConfig(accounts, options.accounts) : [];
  await seedDemo(accounts, queries);
  await updateDemoSql(accounts, queries);
  // a demo account the accounts file names keeps the keys it gives
  const demoInConfig = configured.find((spec) => spec.handle === DEMO_HANDLE);
  return demoInConfig ? (demoInConfig.api_keys[0] ?? null) : await demoKeyForRun(accounts, options.demoApiKey);
}

/** Executions the last run left unfinished fail, and what they left behind goes. */
async function recoverExecutions(config: ServiceConfig, executions: ExecutionStore, results: ResultStore): Promise<void> {
  const now = nowIso();
  await executions.failUnfinished(
    now,
    addMillis(now, config.retentionMillis),
    'The service stopped while this execution was pending or running; run the query again.',
  );
  await sweepLeftovers(config.tempDir, executions, results);
}

/** The stores and the executor, opened on `storage`, and what a run must close besides them. */
async function openDeps(
  options: ServiceOptions,
  config: ServiceConfig,
  storage: Storage,
): Promise<{ deps: ServiceDeps; sandboxes: Sandboxes; demoApiKey: string | null }> {
  const accounts = new AccountStore(storage.meta);
  const queries = new QueryStore(storage.meta);
  const executions = new ExecutionStore(storage.meta);
  const results = new ResultStore(storage.results, config.tempDir);
  await recoverExecutions(config, executions, results);
  const demoApiKey = await prepareAccounts(accounts, queries, options);
  await expireDue(executions, results);
  const tables = new TableStore(storage.meta);
  const tableData = new TableData(storage.files, tables, storage.tableFiles);
  await prepareTableFiles(options.dataDir, storage.files, tables, tableData, storage.tableFiles);
  const sandboxes = new Sandboxes(tables, storage.tableFiles, {
    catalog: config.serviceName.toLowerCase(),
    tempDir: config.tempDir,
    hiddenPaths: [resolve(options.dataDir), process.cwd(), homedir(), tmpdir()],
    budget: new ExecutionBudget(config.total),
    samples: new SampleTables(options.dataDir),
  });
  const executor = new Executor({
    executions,
    results,
    sandboxes,
    slotsPerAccount: config.executionSlots,
    runningLimit: config.runningExecutions,
    newcomerSlot: config.newcomerSlot,
    retentionMillis: config.retentionMillis,
    limits: config.plans,
  });
  const hidePaths = (text: string) => sandboxes.hidePaths(text);
  return { deps: { config, accounts, queries, executions, results, executor, tables, tableData, hidePaths }, sandboxes, demoApiKey };
}

function routerOf(deps: ServiceDeps): Router<ServiceAccount> {
  const router = new Router<ServiceAccount>();
  addQueryRoutes(router, deps);
  addQueryWriteRoutes(router, deps);
  addExecutionRoutes(router, deps);
  addResultRoutes(router, deps);
  addTableRoutes(router, deps);
  return router;
}

async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Sweeps expired executions, detaches idle results and closes idle DuckDBs (contexts', storage's) while the service runs; the function answered stops them. */
function startUpkeep(deps: ServiceDeps, storage: Storage, sandboxes: Sandboxes): () => Promise<void> {
  let sweeping = Promise.resolve();
  const sweeper = setInterval(() => {
    sweeping = expireDue(deps.executions, deps.results).catch((error: unknown) => console.error('[service] expiry sweep failed:', error));
  }, EXPIRY_SWEEP_MILLIS);
  sweeper.unref();
  let detaching: Promise<void> | null = null;
  const detacher = setInterval(() => {
    // a tick while the last one still closes something waits for the next
    if (detaching) return;
    sandboxes.closeIdle(IDLE_MILLIS);
    detaching = deps.results
      .giveBackIdle(IDLE_MILLIS)
      .then(() => storage.results.detachIdle(IDLE_MILLIS))
      .then(() => storage.closeIdle(IDLE_MILLIS))
      .catch((error: unknown) => console.error('[service] detaching idle results failed:', error))
      .finally(() => (detaching = null));
  }, UPKEEP_TICK_MILLIS);
  detacher.unref();
  return async () => {
    clearInterval(sweeper);
    clearInterval(detacher);
    await Promise.all([sweeping, detaching]);
  };
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const config = configOf(options);
  const storage = await openStorage(options.dataDir);
  try {
    const { deps, sandboxes, demoApiKey } = await openDeps(options, config, storage);
    const http = createHttpServer({
      router: routerOf(deps),
      identify: (request, url) => authenticate(deps.accounts, request, url, config.serviceName),
      admit: config.rateLimit ? admitter(new RateLimiter()) : undefined,
      compression: options.compression ?? 'auto',
      lingerMillis: config.bodyIdleMillis,
    });
    const { server } = http;
    const host = options.host ?? '127.0.0.1';
    const port = await listen(server, host, options.port ?? 0);
    const stopUpkeep = startUpkeep(deps, storage, sandboxes);
    let closing: Promise<void> | undefined;
    return {
      baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      demoApiKey,
      close() {
        closing ??= (async () => {
          await stopUpkeep();
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeAllConnections();
          await closed;
          await http.idle();
          await deps.executor.close();
          await deps.results.close();
          await sandboxes.close();
          await storage.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}
