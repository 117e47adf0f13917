import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionUpdate } from '../../../../main/contract/index.ts';
import { DEFAULT_POLL_BOUNDS, paceOf } from '../../../../main/core/executions/poll-pace.ts';
import { statusAfterExecute } from '../../../../main/core/executions/snapshot.ts';
import { createExecutionWatcher, type ExecutionWatcher } from '../../../../main/core/executions/watcher.ts';
import { createServiceClient, type ServiceClient } from '../../../../main/core/service-client/index.ts';
import { startFakeService, type FakeService } from '../fake-service.ts';

// The watcher against a service on loopback that refuses every status check for its rate limit,
// asking for 50 s: the checks wait that long, for every run of the account, and the run says so.
// The clock is faked (a minute and more of waits); the requests go over a real socket.

const START = Date.parse('2026-01-01T00:00:00Z');
const RETRY_AFTER_S = 50;

let service: FakeService | null = null;
let watcher: ExecutionWatcher | null = null;
afterEach(async () => {
  watcher?.dispose();
  vi.useRealTimers();
  await service?.close();
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the watcher under a rate limit', () => {
  it("waits as long as the service's Retry-After asks, for every run of the account, and says until when", async () => {
    vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const polls: { id: string; at: number }[] = [];
    service = await startFakeService((request) => {
      polls.push({ id: request.path.split('/')[4]!, at: Date.now() - START });
      return {
        status: 429,
        body: { error: `rate limit exceeded: the free plan allows 40 read requests per minute; retry in ${RETRY_AFTER_S} s` },
        headers: { 'retry-after': String(RETRY_AFTER_S) },
      };
    });
    const real = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'Dune', apiKey: 'key-bob' });
    const checks = { sent: 0, answered: 0 };
    const client: ServiceClient = {
      ...real,
      executions: {
        ...real.executions,
        status: (...args) => {
          checks.sent += 1;
          return real.executions.status(...args).finally(() => (checks.answered += 1));
        },
      },
    };
    const updates: ExecutionUpdate[] = [];
    watcher = createExecutionWatcher({ emit: (update) => updates.push(update), pace: (id) => paceOf(id, DEFAULT_POLL_BOUNDS) });

    const stepTo = async (ms: number) => {
      while (Date.now() - START < ms) {
        await vi.advanceTimersByTimeAsync(500);
        // a check sent in this step is answered over the socket before the clock moves on
        while (checks.answered < checks.sent) await nextTurn();
      }
    };
    watcher.watch('dune', client, statusAfterExecute('E1', 'QUERY_STATE_PENDING', 7));
    await stepTo(10_000);
    watcher.watch('dune', client, statusAfterExecute('E2', 'QUERY_STATE_PENDING', 7));
    await stepTo(125_000);

    expect(polls[0]).toEqual({ id: 'E1', at: 1000 });
    // each refusal holds every check of the account for the wait: checks sent together before an
    // answer came aside, none comes sooner than 50 s after the last refused one
    const moments = [...new Set(polls.map((poll) => poll.at))];
    expect(moments.length).toBeGreaterThan(2);
    for (let i = 1; i < moments.length; i += 1) expect(moments[i]! - moments[i - 1]!).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    expect(polls.filter((poll) => poll.id === 'E2').length).toBeGreaterThan(0);
    const waiting = updates.find((update) => update.executionId === 'E1' && update.rateLimitedUntil !== undefined);
    expect(waiting).toMatchObject({ state: 'QUERY_STATE_PENDING', isFinished: false, error: null });
    expect(waiting?.rateLimitedUntil).toBe(new Date(START + 1000 + RETRY_AFTER_S * 1000).toISOString());
  });
});
