import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionUpdate } from '../../../../main/contract/index.ts';
import { ACCOUNT_POLL_RATE } from '../../../../main/core/executions/poll-budget.ts';
import { DEFAULT_POLL_BOUNDS, paceOf } from '../../../../main/core/executions/poll-pace.ts';
import { statusAfterExecute } from '../../../../main/core/executions/snapshot.ts';
import { createExecutionWatcher, type ExecutionWatcher } from '../../../../main/core/executions/watcher.ts';
import type {
  ClientResult,
  ExecutionStatus,
  ResultMetadata,
  ResultsPage,
  ServiceClient,
} from '../../../../main/core/service-client/index.ts';

const metadata: ResultMetadata = {
  columnNames: ['n'],
  columnTypes: ['integer'],
  rowCount: 1,
  resultSetBytes: 8,
  totalRowCount: 3000,
  totalResultSetBytes: 24000,
  datapointCount: 3000,
  pendingTimeMillis: 5,
  executionTimeMillis: 120,
};

function status(state: string, extra: Partial<ExecutionStatus> = {}): ClientResult<ExecutionStatus> {
  return { ok: true, data: { ...statusAfterExecute('E1', state, 7), ...extra } };
}

const notUsed = () => {
  throw new Error('not used');
};

/** A client whose status answers follow a script; the last answer repeats. */
function scriptedClient(script: ClientResult<ExecutionStatus>[], resultsMetadata: ResultMetadata | null = null) {
  const calls = { status: 0, results: 0 };
  const fake = {
    executions: {
      status: async () => script[Math.min(calls.status++, script.length - 1)]!,
      execute: async () => {
        throw new Error('not used');
      },
      executeSql: async () => {
        throw new Error('not used');
      },
      cancel: async () => {
        throw new Error('not used');
      },
    },
    results: {
      page: async (): Promise<ClientResult<ResultsPage>> => {
        calls.results += 1;
        const page = status('QUERY_STATE_COMPLETED');
        return page.ok ? { ok: true, data: { ...page.data, rows: [], metadata: resultsMetadata, nextOffset: null, nextUri: null } } : page;
      },
    },
    queries: { list: notUsed, get: notUsed, create: notUsed, update: notUsed, setFlag: notUsed },
    tables: { list: notUsed, uploadCsv: notUsed, create: notUsed, insert: notUsed, remove: notUsed },
  };
  // Only what the watcher uses is scripted; the rest of the client is never called.
  const client = {
    ...fake,
    results: { ...fake.results, pages: notUsed, csvPages: notUsed, csvPageStream: notUsed, latest: notUsed },
  } satisfies ServiceClient;
  return { client, calls };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

let watcher: ExecutionWatcher | null = null;
afterEach(() => watcher?.dispose());

function startWatcher() {
  const updates: ExecutionUpdate[] = [];
  watcher = createExecutionWatcher({ emit: (update) => updates.push(update), pace: () => ({ delay: () => 1, rate: null }) });
  return { watcher, updates };
}

describe('the execution watcher', () => {
  it('emits each state in order, with queue position and result summary, and stops at the end', async () => {
    const { client, calls } = scriptedClient([
      status('QUERY_STATE_PENDING', { queuePosition: 2 }),
      status('QUERY_STATE_EXECUTING', { startedAt: '2026-01-01T00:00:00Z' }),
      status('QUERY_STATE_COMPLETED', { isExecutionFinished: true, resultMetadata: metadata }),
      { ok: false, error: { kind: 'bad_request', status: 400, message: 'polled after the end' } },
    ]);
    const { watcher, updates } = startWatcher();
    const first = watcher.watch('local', client, statusAfterExecute('E1', 'QUERY_STATE_PENDING', 7));
    expect(first).toMatchObject({ accountId: 'local', executionId: 'E1', queryId: 7, isFinished: false });
    await until(() => updates.some((u) => u.isFinished));
    // Anything the watcher still did would show up as a fourth status call.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls.status).toBe(3);
    expect(updates.map((u) => u.state)).toEqual([
      'QUERY_STATE_PENDING',
      'QUERY_STATE_PENDING',
      'QUERY_STATE_EXECUTING',
      'QUERY_STATE_COMPLETED',
    ]);
    expect(updates[1]?.queuePosition).toBe(2);
    expect(updates.at(-1)?.result).toEqual({
      columnNames: ['n'],
      columnTypes: ['integer'],
      totalRowCount: 3000,
      totalBytes: 24000,
      executionTimeMillis: 120,
      datapointCount: 3000,
    });
    expect(watcher.latest('local', 'E1')).toEqual(updates.at(-1));
  });

  it('carries a failure with its line and column', async () => {
    const failure = { type: 'syntax_error', message: "line 2:5: mismatched input 'selec'", line: 2, column: 5 };
    const { client } = scriptedClient([status('QUERY_STATE_FAILED', { isExecutionFinished: true, error: failure })]);
    const { watcher, updates } = startWatcher();
    watcher.watch('local', client, statusAfterExecute('E1', 'QUERY_STATE_PENDING', 7));
    await until(() => updates.some((u) => u.isFinished));
    expect(updates.at(-1)).toMatchObject({ state: 'QUERY_STATE_FAILED', error: failure, result: null });
  });

  it('keeps polling through an unknown state, and ends when the service says the execution finished', async () => {
    const { client, calls } = scriptedClient([
      status('QUERY_STATE_WARMING_UP'),
      status('QUERY_STATE_WARMING_UP'),
      status('QUERY_STATE_DONE_IN_A_NEW_WAY', { isExecutionFinished: true }),
    ]);
    const { watcher, updates } = startWatcher();
    watcher.watch('local', client, statusAfterExecute('E1', 'QUERY_STATE_PENDING', 7));
    await until(() => updates.some((u) => u.isFinished));
    expect(calls.status).toBe(3);
    expect(updates.at(-1)?.state).toBe('QUERY_STATE_DONE_IN_A_NEW_WAY');
  });

  it('retries through transient errors and stops with an error on a permanent one', async () => {
    const { client, calls } = scriptedClient([
      { ok: false, error: { kind: 'unreachable', status: null, message: 'ECONNREFUSED' } },
      { ok: false, error: { kind: 'rate_limited', status: 429, message: 'slow down' } },
      status('QUERY_STATE_EXECUTING'),
      { ok: false, error: { kind: 'bad_request', status: 400, message: 'The requested execution ID (ID: E1) is invalid.' } },
    ]);
    const { watcher, updates } = startWatcher();
    watcher.watch('local', client, statusAfterExecute('E1', 'QUERY_STATE_PENDING', 7));
    await until(() => updates.some((u) => u.error !== null));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls.status).toBe(4);
    expect(updates.at(-1)).toMatchObject({ state: 'QUERY_STATE_EXECUTING', error: { type: 'watch_bad_request' } });
    expect(updates.at(-1)?.error?.message).toContain('is invalid');
  });

  it('says it waits when the service refuses a check for its rate limit without saying how long, and no more once answered', async () => {
    const { client } = scriptedClient([
      { ok: false, error: { kind: 'rate_limited', status: 429, message: 'Too many requests' } },
      status('QUERY_STATE_EXECUTING'),
      status('QUERY_STATE_COMPLETED', { isExecutionFinished: true, resultMetadata: metadata }),
    ]);
    const { watcher, updates } = startWatcher();
    watcher.watch('local', client, statusAfterExecute('E1', 'QUERY_STATE_PENDING', 7));
    await until(() => updates.some((u) => u.isFinished));
    expect(updates.map((u) => [u.state, u.rateLimitedUntil === undefined ? null : 'waiting'])).toEqual([
      ['QUERY_STATE_PENDING', null],
      ['QUERY_STATE_PENDING', 'waiting'],
      ['QUERY_STATE_EXECUTING', null],
      ['QUERY_STATE_COMPLETED', null],
    ]);
    expect(Number.isNaN(Date.parse(updates[1]!.rateLimitedUntil!))).toBe(false);
  });

  it('reads the result summary from the results endpoint when a completed status lacks it', async () => {
    const { client, calls } = scriptedClient([status('QUERY_STATE_COMPLETED', { isExecutionFinished: true })], metadata);
    const { watcher, updates } = startWatcher();
    watcher.watch('local', client, statusAfterExecute('E1', 'QUERY_STATE_PENDING', 7));
    await until(() => updates.some((u) => u.isFinished));
    expect(calls.results).toBe(1);
    expect(updates.at(-1)?.result?.totalRowCount).toBe(3000);
  });

  it('reads the status once when execute answered with an end, for what execute does not say', async () => {
    const { client, calls } = scriptedClient([
      status('QUERY_STATE_COMPLETED', { isExecutionFinished: true, submittedAt: '2026-01-01T00:00:00Z', resultMetadata: metadata }),
    ]);
    const { watcher, updates } = startWatcher();
    const first = watcher.watch('local', client, statusAfterExecute('E1', 'QUERY_STATE_COMPLETED', 7));
    expect(first).toMatchObject({ isFinished: true, result: null });
    await until(() => updates.some((u) => u.result !== null));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls.status).toBe(1);
    expect(updates.at(-1)).toMatchObject({
      state: 'QUERY_STATE_COMPLETED',
      submittedAt: '2026-01-01T00:00:00Z',
      result: { totalRowCount: 3000 },
    });
    expect(watcher.latest('local', 'E1')).toEqual(updates.at(-1));
  });

  it('does not poll an execution the service said had ended, and stops everything on dispose', async () => {
    const { client, calls } = scriptedClient([status('QUERY_STATE_EXECUTING')]);
    const { watcher, updates } = startWatcher();
    const cancelled = {
      ...statusAfterExecute('E2', 'QUERY_STATE_CANCELLED', 7),
      isExecutionFinished: true,
      submittedAt: '2026-01-01T00:00:00Z',
    };
    watcher.watch('local', client, cancelled);
    watcher.watch('local', client, statusAfterExecute('E1', 'QUERY_STATE_PENDING', 7));
    await until(() => calls.status >= 2);
    watcher.dispose();
    const seen = calls.status;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls.status).toBe(seen);
    expect(updates[0]).toMatchObject({ executionId: 'E2', isFinished: true });
  });
});

describe('the polls of an account', () => {
  afterEach(() => vi.useRealTimers());

  it('share one rate however many of its runs are watched, past a first burst', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, calls } = scriptedClient([status('QUERY_STATE_EXECUTING')]);
    watcher = createExecutionWatcher({ emit: () => undefined, pace: (accountId) => paceOf(accountId, DEFAULT_POLL_BOUNDS) });
    for (const id of ['E1', 'E2', 'E3']) watcher.watch('dune', client, statusAfterExecute(id, 'QUERY_STATE_PENDING', 7));
    const minutes = 5;
    await vi.advanceTimersByTimeAsync(minutes * 60_000);
    // each run at its own pace would have been polled about 30 times in its first minute, 20 in each after
    expect(calls.status).toBeLessThanOrEqual(ACCOUNT_POLL_RATE.burst + ACCOUNT_POLL_RATE.perMinute * minutes);
    expect(calls.status).toBeGreaterThanOrEqual(ACCOUNT_POLL_RATE.perMinute * minutes);
  });

  it('of the Local account, whose service has no rate limit, are not held to one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, calls } = scriptedClient([status('QUERY_STATE_EXECUTING')]);
    watcher = createExecutionWatcher({ emit: () => undefined, pace: (accountId) => paceOf(accountId, DEFAULT_POLL_BOUNDS) });
    for (const id of ['E1', 'E2', 'E3']) watcher.watch('local', client, statusAfterExecute(id, 'QUERY_STATE_PENDING', 7));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.status).toBeGreaterThan(3 * ACCOUNT_POLL_RATE.perMinute);
  });
});
