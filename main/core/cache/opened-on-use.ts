import type { CacheDb } from './cache-db.ts';
import type { ResultCache } from './result-cache.ts';

// The result cache, opened at its first use (DuckDB's module loaded, its file opened and
// compacted, the downloads a stop broke off found again, the budget kept): a host's first screen
// needs none of it, so core hands this out at once. The first use comes soon after in any case:
// the Local account's service answering resumes the downloads a stop broke off.

/** A cache opened by `open` at its first call, which waits for it; a cache that failed to open fails each call with why. */
export function openedOnUse(open: () => Promise<ResultCache>): ResultCache {
  let opening: Promise<ResultCache> | null = null;
  let opened: ResultCache | null = null;
  const cache = (): Promise<ResultCache> => {
    if (opening === null) {
      opening = open();
      opening.then(
        (ready) => (opened = ready),
        () => undefined,
      );
    }
    return opening;
  };
  return {
    get db(): CacheDb {
      // read only with an entry the cache answered, so once it is open
      if (opened === null) throw new Error('The result cache is still opening.');
      return opened.db;
    },
    status: async (accountId, executionId) => (await cache()).status(accountId, executionId),
    start: async (accountId, client, executionId, allowPartial, knownRows) =>
      (await cache()).start(accountId, client, executionId, allowPartial, knownRows),
    cancel: async (accountId, executionId) => (await cache()).cancel(accountId, executionId),
    use: async (accountId, executionId) => (await cache()).use(accountId, executionId),
    interruptedRows: async (accountId, executionId) => (await cache()).interruptedRows(accountId, executionId),
    resumeInterrupted: async (accountId) => (await cache()).resumeInterrupted(accountId),
    forgetAccount: async (accountId) => (await cache()).forgetAccount(accountId),
    clear: async () => (await cache()).clear(),
    setBudget: async (bytes) => (await cache()).setBudget(bytes),
    usage: async () => (await cache()).usage(),
    pinned: {
      pin: async (pin) => (await cache()).pinned.pin(pin),
      unpin: async (accountId, executionId) => (await cache()).pinned.unpin(accountId, executionId),
      get: async (accountId, executionId) => (await cache()).pinned.get(accountId, executionId),
    },
    folded: async () => (opening === null ? undefined : (await opening.catch(() => null))?.folded()),
    // a cache never used was never opened: nothing to close
    close: async () => (opening === null ? undefined : (await opening.catch(() => null))?.close()),
  };
}
