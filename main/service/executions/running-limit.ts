import { availableParallelism } from 'node:os';

// libuv's pool when UV_THREADPOOL_SIZE is not set, and the most it takes.
const DEFAULT_POOL = 4;
const LARGEST_POOL = 1024;
// Threads of the pool no execution may hold: for the requests that read the service's databases
// (a status, a page, a cancel) while every running execution holds one.
const KEPT_FOR_REQUESTS = 2;

/**
 * The size of libuv's thread pool, as the environment sets it. The service may run in a worker
 * thread, whose environment is a copy of its host's: the hosts set it before the pool starts
 * (see thread/size-thread-pool.ts).
 */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? Math.min(size, LARGEST_POOL) : DEFAULT_POOL;
}

/**
 * How many executions run at once in the service: as many as asked, by default one a core (two
 * to four), and never more than the pool's threads less those kept for requests.
 */
export function runningLimit(requested: number | undefined, poolSize: number): number {
  const wanted = requested ?? Math.min(4, Math.max(2, availableParallelism()));
  return Math.max(1, Math.min(wanted, poolSize - KEPT_FOR_REQUESTS));
}

/**
 * Whether the service may run one execution past `limit` (see Executor's `newcomerSlot`): only
 * while the pool still keeps its threads for requests with that one more running.
 */
export function hasNewcomerSlot(limit: number, poolSize: number): boolean {
  return limit + 1 <= poolSize - KEPT_FOR_REQUESTS;
}
