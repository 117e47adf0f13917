import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Schedule } from '../../../../main/contract/index.ts';
import type { Clock } from '../../../../main/core/schedules/scheduler.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';
import { startFaultProxy, type FaultProxy } from '../fault-proxy.ts';

// A schedule whose service cannot be reached (connections reset by a proxy in front of the
// embedded service) waits: it is tried again after a minute, not at every tick, and runs once
// when the service answers. The clock is the test's; its timers are real and short.

let harness: Harness;
let proxy: FaultProxy;
let offline = true;
let now = Date.parse('2026-05-01T10:00:00Z');
const clock: Clock = {
  now: () => new Date(now),
  setTimeout: (run) => setTimeout(run, 10),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  harness = await startHarness();
  proxy = await startFaultProxy(harness.baseUrl, (request) => (offline && request.url?.includes('/execute') ? 'reset' : null));
  const core = await harness.startCore({
    keyVault: new KeyVault(memoryKeychain()),
    clock,
    localService: { baseUrl: proxy.baseUrl, apiKey: harness.demoApiKey },
  });
  call = caller(core);
});

afterAll(async () => {
  await harness?.close();
  await proxy?.close();
});

async function scheduleWhen(id: string, done: (schedule: Schedule) => boolean): Promise<Schedule> {
  for (;;) {
    const listed = await call('schedules:list', {});
    const schedule = listed.ok ? listed.data.schedules.find((s) => s.id === id) : undefined;
    if (schedule && done(schedule)) return schedule;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const executes = () => proxy.requests.filter((r) => r.startsWith('POST') && r.includes('/execute')).length;

it('waits for an unreachable service with a backoff, then runs the missed slot once', async () => {
  await call('workspace:refresh', { accountId: 'local' });
  const opened = await call('workspace:open', { accountId: 'local' });
  if (!opened.ok) throw new Error(opened.error.message);
  const daily = opened.data.queries.find((q) => q.name === 'Daily volume by chain')!;
  const saved = await call('schedules:save', {
    accountId: 'local',
    queryId: daily.id,
    queryName: daily.name,
    parameters: {},
    rule: { kind: 'daily', at: '12:00' },
    notify: { when: 'always' },
  });
  if (!saved.ok) throw new Error(saved.error.message);

  now = Date.parse(saved.data.nextRunAt!) + 5_000;
  const waiting = await scheduleWhen(saved.data.id, (s) => s.lastRun?.outcome === 'offline');
  const attempts = executes();
  expect(attempts).toBeGreaterThan(0);
  expect(waiting.nextRunAt).toBe(new Date(now + 60_000).toISOString());
  expect(waiting.stopped).toBeNull();

  // the second wait is twice the first
  now += 61_000;
  const again = await scheduleWhen(saved.data.id, (s) => s.lastRun?.at !== waiting.lastRun?.at && s.lastRun?.outcome === 'offline');
  expect(Date.parse(again.nextRunAt!) - now).toBe(120_000);
  expect(executes()).toBe(attempts * 2);

  offline = false;
  now += 121_000;
  const ran = await scheduleWhen(saved.data.id, (s) => s.lastRun?.outcome === 'completed');
  expect(executes()).toBe(attempts * 2 + 1);
  // the next slot is the next day's, counted from the run
  expect(Date.parse(ran.nextRunAt!) - now).toBeGreaterThan(12 * 3_600_000);
});
