import { fail, ok, type PinState, type Result } from '../../contract/index.ts';
import { findAccount } from '../accounts/find-account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { ExecutionRecords } from '../executions/history.ts';
import { isFailure, noSuchAccount, serviceFailure } from '../failures.ts';
import { maxAgeOf, setMaxAge } from '../freshness/max-ages.ts';
import { serviceLatest } from '../freshness/service-latest.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { UiState } from '../workspace/ui-state.ts';

type FreshnessChannels = 'freshness:query' | 'freshness:setMaxAge' | 'freshness:pin' | 'freshness:pinState';

export interface FreshnessHandlerOptions {
  accounts: AccountRegistry;
  cache: ResultCache;
  history: Pick<ExecutionRecords, 'find'>;
  ui: UiState;
  now?: () => Date;
}

export function freshnessHandlers(options: FreshnessHandlerOptions): Pick<Handlers, FreshnessChannels> {
  const { accounts, cache, ui } = options;
  const now = options.now ?? (() => new Date());
  return {
    'freshness:query': async ({ accountId, queryId, parameters }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      const maxAge = maxAgeOf(ui, accountId, queryId);
      if (maxAge === null) return ok({ maxAgeMinutes: null, latest: null });
      const account = findAccount(accounts, accountId);
      const latest = isFailure(account) ? null : await serviceLatest(account.client, accountId, queryId, parameters);
      return ok({ maxAgeMinutes: maxAge, latest });
    },

    'freshness:setMaxAge': async ({ accountId, queryId, maxAgeMinutes }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      setMaxAge(ui, accountId, queryId, maxAgeMinutes);
      return ok({ maxAgeMinutes });
    },

    'freshness:pin': async ({ accountId, executionId, pinned }): Promise<Result<PinState>> => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      if (!pinned) {
        await cache.pinned.unpin(accountId, executionId);
        return ok({ pinned: false, keptUntil: null });
      }
      const expiry = await expiryOf(options, accountId, executionId);
      if (isFailure(expiry)) return expiry;
      const at = now();
      if (expiry.expiresAt !== null && Date.parse(expiry.expiresAt) <= at.getTime()) {
        return fail(
          'bad_request',
          `The result of ${executionId} expired on the service at ${expiry.expiresAt}: it can no longer be pinned.`,
        );
      }
      await cache.pinned.pin({ accountId, executionId, expiresAt: expiry.expiresAt, pinnedAt: at.toISOString() });
      return ok({ pinned: true, keptUntil: expiry.expiresAt });
    },

    'freshness:pinState': async ({ accountId, executionId }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      const pin = await cache.pinned.get(accountId, executionId);
      return ok({ pinned: pin !== null, keptUntil: pin?.expiresAt ?? null });
    },
  };
}

/** When the service expires the result: as the cache or this app's runs know it, else as the service says. */
async function expiryOf(
  { accounts, cache, history }: FreshnessHandlerOptions,
  accountId: string,
  executionId: string,
): Promise<{ expiresAt: string | null } | ReturnType<typeof fail>> {
  const known = (await cache.status(accountId, executionId)).expiresAt ?? history.find(accountId, executionId)?.expiresAt;
  if (known) return { expiresAt: known };
  const account = findAccount(accounts, accountId);
  if (isFailure(account)) return account;
  const read = await account.client.executions.status(executionId);
  return read.ok ? { expiresAt: read.data.expiresAt } : serviceFailure(read.error);
}
