import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { HEAP_SHRINK } from '../../common/memory-budgets.ts';
import { collectGarbage } from './v8-collector.ts';

// V8 grows a thread's heap as it works (its young generation most: a start, a large result, a
// burst of requests) and keeps the room once the work is done; it gives it back in a collection
// made to reduce memory, which it seldom starts by itself. A thread that comes to rest with its
// heap grown runs one, as a desktop app at rest should hold little. It takes a few tens of
// milliseconds of the thread's time, and is run only after it has been quiet for a while.

/** Collects this thread's heap as V8 does when memory runs short: what it can free, and the room its young generation grew to. */
export function shrinkHeap(): void {
  collectGarbage({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * Checks this thread every `HEAP_SHRINK.tickMillis`: once its event loop has been quiet for
 * `quietTicks` checks in a row with its heap grown by `growthBytes` or more since it was last
 * shrunk (or started), shrinks it. Answers a function that stops the checks; they never keep the thread alive.
 */
export function shrinkHeapAtRest(): () => void {
  let before = performance.eventLoopUtilization();
  let quietTicks = 0;
  let floor = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    quietTicks = performance.eventLoopUtilization(now, before).utilization < HEAP_SHRINK.quietUtilization ? quietTicks + 1 : 0;
    before = now;
    if (quietTicks < HEAP_SHRINK.quietTicks || getHeapStatistics().total_physical_size < floor + HEAP_SHRINK.growthBytes) return;
    shrinkHeap();
    floor = getHeapStatistics().total_physical_size;
    before = performance.eventLoopUtilization();
  }, HEAP_SHRINK.tickMillis);
  timer.unref();
  return () => clearInterval(timer);
}
