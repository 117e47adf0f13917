import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SyncState } from '../../../../main/contract/index.ts';
import { AccountSync, retryDelay, type Reach } from '../../../../main/core/workspace/account-sync.ts';

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-24T10:00:00Z') }));
afterEach(() => vi.useRealTimers());

function sync(answers: Reach[]) {
  const states: SyncState[] = [];
  let attempts = 0;
  const account = new AccountSync({
    accountId: 'a',
    attempt: async () => answers[Math.min(attempts++, answers.length - 1)]!,
    onChange: (state) => states.push(state),
    random: () => 0.5,
  });
  return { account, states, attempts: () => attempts };
}

describe('an account’s sync state', () => {
  it('words an attempt that failed on an error of its own as a sentence', async () => {
    const account = new AccountSync({
      accountId: 'a',
      attempt: async () => Promise.reject(new TypeError('store closed')),
      onChange: () => undefined,
      random: () => 0.5,
    });
    expect(await account.refresh()).toMatchObject({ status: 'offline', reason: 'Store closed.' });
    account.dispose();
  });

  it('waits 2 s, 4 s, 8 s … at most a minute between retries, with ±20 % jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 9].map((n) => retryDelay(n, () => 0.5))).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    expect(retryDelay(1, () => 0)).toBe(1600);
    expect(retryDelay(1, () => 0.999999)).toBe(2400);
  });

  it('retries by itself while offline, keeps when it went offline, and is online once it answers', async () => {
    const offline: Reach = { status: 'offline', reason: 'connect ECONNREFUSED' };
    const { account, states, attempts } = sync([offline, offline, { status: 'online' }]);
    expect(await account.refresh()).toMatchObject({
      status: 'offline',
      offlineSince: '2026-11-24T10:00:00.000Z',
      nextRetryAt: '2026-11-24T10:00:02.000Z',
    });
    await vi.advanceTimersByTimeAsync(2000);
    expect(attempts()).toBe(2);
    expect(account.state).toMatchObject({
      status: 'offline',
      offlineSince: '2026-11-24T10:00:00.000Z',
      nextRetryAt: '2026-11-24T10:00:06.000Z',
    });
    await vi.advanceTimersByTimeAsync(4000);
    expect(account.state).toMatchObject({ status: 'online', lastSyncedAt: '2026-11-24T10:00:06.000Z', offlineSince: null, reason: null });
    // It starts as checking: the first attempt changes nothing until it ends.
    expect(states.map((s) => s.status)).toEqual(['offline', 'checking', 'offline', 'checking', 'online']);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(attempts()).toBe(3);
  });

  it('does not retry a refused key by itself, and tries at once when the network comes back', async () => {
    const refused = sync([{ status: 'key_refused', reason: 'invalid API key' }]);
    await refused.account.refresh();
    await vi.advanceTimersByTimeAsync(300_000);
    expect(refused.attempts()).toBe(1);
    refused.account.networkBack();
    expect(refused.attempts()).toBe(1);

    const offline = sync([{ status: 'offline', reason: 'down' }, { status: 'online' }]);
    await offline.account.refresh();
    offline.account.networkBack();
    await vi.advanceTimersByTimeAsync(0);
    expect(offline.attempts()).toBe(2);
    expect(offline.account.state.status).toBe('online');
  });

  it('stops retrying once disposed', async () => {
    const { account, attempts } = sync([{ status: 'offline', reason: 'down' }]);
    await account.refresh();
    account.dispose();
    await vi.advanceTimersByTimeAsync(300_000);
    expect(attempts()).toBe(1);
  });

  it("goes offline at the first failure a call reports, keeps the retries' pace while offline, and checks at once when a call gets an answer", async () => {
    const down: Reach = { status: 'offline', reason: 'socket hang up' };
    const { account, states, attempts } = sync([{ status: 'online' }, down, { status: 'online' }]);
    await account.refresh();
    account.observe({ status: 'online' });
    expect(attempts()).toBe(1);
    account.observe(down);
    expect(account.state).toMatchObject({ status: 'offline', reason: 'socket hang up', nextRetryAt: '2026-11-24T10:00:02.000Z' });
    // more failed pages while offline neither move the retry nor count as failed retries
    await vi.advanceTimersByTimeAsync(1000);
    account.observe(down);
    account.observe(down);
    expect(account.state.nextRetryAt).toBe('2026-11-24T10:00:02.000Z');
    await vi.advanceTimersByTimeAsync(1000);
    expect(attempts()).toBe(2);
    expect(account.state).toMatchObject({ status: 'offline', nextRetryAt: '2026-11-24T10:00:06.000Z' });
    account.observe({ status: 'online' });
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts()).toBe(3);
    expect(account.state.status).toBe('online');
    expect(states.map((s) => s.status)).toEqual(['online', 'offline', 'checking', 'offline', 'checking', 'online']);
  });
});
