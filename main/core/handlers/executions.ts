import {
  ok,
  type ExecutionListItem,
  type ExecutionUpdate,
  type LatestResult,
  type ParameterValues,
  type Result,
} from '../../contract/index.ts';
import { findAccount, withAccount } from '../accounts/find-account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import { prepareHistorySearch, searchHistory, searchWords } from '../executions/history-search.ts';
import type { ExecutionRecords, RanText } from '../executions/history.ts';
import { latestFinished, rememberedUpdate } from '../executions/remembered.ts';
import { withResultMetadata } from '../executions/result-metadata.ts';
import { statusAfterExecute } from '../executions/snapshot.ts';
import type { ExecutionWatcher } from '../executions/watcher.ts';
import { isFailure, serviceFailure } from '../failures.ts';
import { serviceLatest } from '../freshness/service-latest.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { ClientResult } from '../service-client/errors.ts';
import type { ExecuteResponse } from '../service-client/executions.ts';
import { isNetworkFailure, type ServiceClient } from '../service-client/index.ts';
import type { Workspaces } from '../workspace/workspaces.ts';

type ExecutionChannels =
  | 'executions:run'
  | 'executions:runSql'
  | 'executions:get'
  | 'executions:cancel'
  | 'executions:list'
  | 'executions:viewing'
  | 'executions:latest'
  | 'executions:history';

export interface Viewing {
  accountId: string;
  executionId: string;
}

export interface ExecutionHandlerOptions {
  accounts: AccountRegistry;
  watcher: ExecutionWatcher;
  history: ExecutionRecords;
  cache: ResultCache;
  /** Told which execution the UI shows, so a finished one elsewhere can be notified. */
  setViewing: (viewing: Viewing | null) => void;
  /** Where a saved query's name and text are known, to be kept with each run of it. */
  workspaces: Pick<Workspaces, 'store'>;
}

export function executionHandlers(options: ExecutionHandlerOptions): Pick<Handlers, ExecutionChannels> {
  return { ...runHandlers(options), ...recordHandlers(options) };
}

async function isCached(cache: ResultCache, accountId: string, executionId: string): Promise<boolean> {
  return (await cache.status(accountId, executionId)).state === 'cached';
}

/** Runs started, read and cancelled on the service, and watched until they end. */
function runHandlers(
  options: ExecutionHandlerOptions,
): Pick<Handlers, 'executions:run' | 'executions:runSql' | 'executions:get' | 'executions:cancel'> {
  const { accounts, watcher, history, cache } = options;
  /** Sends the run, remembers it for the query's tab (with the text that ran), and watches it. */
  async function start(
    accountId: string,
    client: ServiceClient,
    queryId: number | null,
    parameters: ParameterValues,
    sql: string | undefined,
    send: (client: ServiceClient) => Promise<ClientResult<ExecuteResponse>>,
  ): Promise<Result<ExecutionUpdate>> {
    const startedAtMs = Date.now();
    const saved = queryId === null ? null : (options.workspaces.store(accountId).query(queryId)?.query ?? null);
    const started = await send(client);
    if (!started.ok) return serviceFailure(started.error);
    const ran: RanText = { ...(sql === undefined ? {} : { sql }), ...(saved && { queryName: saved.name }) };
    if (saved && sql === undefined) ran.querySql = saved.sql;
    // SQL of no query is remembered under 0, as the service records it
    history.started(accountId, started.data.executionId, queryId ?? 0, parameters, ran);
    const status = statusAfterExecute(started.data.executionId, started.data.state, queryId ?? 0);
    return ok(watcher.watch(accountId, client, status, startedAtMs));
  }

  return {
    'executions:run': withAccount(accounts, (entry, { accountId, queryId, parameters = {} }) =>
      start(accountId, entry.client, queryId, parameters, undefined, (client) =>
        client.executions.execute({ queryId, queryParameters: parameters }),
      ),
    ),

    'executions:runSql': withAccount(accounts, (entry, { accountId, queryId, sql, parameters = {} }) =>
      start(accountId, entry.client, queryId, parameters, sql, (client) => client.executions.executeSql({ sql })),
    ),

    'executions:get': withAccount(accounts, async (entry, { accountId, executionId }) => {
      const known = watcher.latest(accountId, executionId);
      if (known) return ok(known);
      // A finished run whose rows are in the cache reads from disk, without waiting on the network
      // (which, offline, takes a while to say so)
      const finished = history.find(accountId, executionId);
      if (finished?.isFinished && (await isCached(cache, accountId, executionId))) return ok(rememberedUpdate(finished));
      // Not started by this app run: read it once, and keep watching it if it is still going.
      const read = await entry.client.executions.status(executionId);
      if (!read.ok) {
        // Unreachable: the last state this app saw of a run it knows (a finished one shows offline).
        const remembered = isNetworkFailure(read.error) ? history.find(accountId, executionId) : null;
        return remembered ? ok(rememberedUpdate(remembered)) : serviceFailure(read.error);
      }
      const status = await withResultMetadata(entry.client, read.data);
      const submittedAtMs = status.submittedAt === null ? Number.NaN : Date.parse(status.submittedAt);
      return ok(watcher.watch(accountId, entry.client, status, Number.isNaN(submittedAtMs) ? Date.now() : submittedAtMs));
    }),

    'executions:cancel': withAccount(accounts, async (entry, { accountId, executionId }) => {
      const cancelled = await entry.client.executions.cancel(executionId);
      if (!cancelled.ok) return serviceFailure(cancelled.error);
      watcher.pollNow(accountId, executionId);
      return ok({ cancelled: cancelled.data });
    }),
  };
}

/** What this app remembers of its runs, and which one the UI shows. */
function recordHandlers(
  options: ExecutionHandlerOptions,
): Pick<Handlers, 'executions:list' | 'executions:latest' | 'executions:viewing' | 'executions:history'> {
  const { accounts, history, cache } = options;
  let preparing: Promise<void> | null = null;
  return {
    'executions:history': async ({ text, accountId, limit = 200 }) => {
      const accountName = (id: string) => accounts.get(id)?.account.label ?? id;
      const words = searchWords(text);
      // the panel opens with no words: its runs' words are made then, before a search is typed
      if (words.length === 0) preparing ??= prepareHistorySearch(history.all()).finally(() => (preparing = null));
      const found = searchHistory(history.all(), { words, accountId, limit, accountName });
      return ok({ ...found, skipped: history.skipped });
    },

    'executions:list': async ({ accountId, limit = 50 }) => {
      const records = history.list(accountId, limit);
      const executions: ExecutionListItem[] = await Promise.all(
        records.map(async (r) => ({ ...r, isCached: r.isFinished && (await isCached(cache, accountId, r.executionId)) })),
      );
      return ok({ executions });
    },

    'executions:latest': async ({ accountId, queryId, parameters }): Promise<Result<LatestResult | null>> => {
      const record = latestFinished(history.list(accountId, Number.MAX_SAFE_INTEGER), queryId, parameters);
      if (record) {
        const execution = rememberedUpdate(record);
        return ok({
          execution,
          parameters: record.parameters,
          isCached: await isCached(cache, accountId, record.executionId),
          source: 'local',
        });
      }
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return ok(null);
      const execution = await serviceLatest(entry.client, accountId, queryId);
      if (execution === null || execution.result === null) return ok(null);
      // Like any result shown: downloaded into the cache in the background when it fits.
      void cache.start(accountId, entry.client, execution.executionId, false, execution.result.totalRowCount).catch(() => undefined);
      return ok({ execution, parameters: null, isCached: await isCached(cache, accountId, execution.executionId), source: 'service' });
    },

    'executions:viewing': async ({ viewing }) => {
      options.setViewing(viewing);
      return ok({});
    },
  };
}
