import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Schedule, ScheduleNews } from '../../../../main/contract/index.ts';
import { openScheduleFile } from '../../../../main/core/schedules/schedule-file.ts';
import type { RunEnd, ScheduleInput, StartOutcome } from '../../../../main/core/schedules/schedule-state.ts';
import { Scheduler, type Clock } from '../../../../main/core/schedules/scheduler.ts';

// The scheduler with a clock the test moves, a real schedules file, and a runner that answers as
// the test says: what runs when, what a restart after a long absence runs, and what stops it.

/** A clock whose time moves only when the test says, firing the timers that come due. */
function testClock(start: string) {
  let now = Date.parse(start);
  let timers: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  const clock: Clock = {
    now: () => new Date(now),
    setTimeout: (run, ms) => {
      timers.push({ at: now + ms, run, id: ++ids });
      return ids;
    },
    clearTimeout: (id) => (timers = timers.filter((t) => t.id !== id)),
  };
  return {
    clock,
    /** Moves time to `to`, firing each timer on its way, letting the runs it started settle. */
    async moveTo(to: string) {
      const target = Date.parse(to);
      for (;;) {
        const next = timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((t) => t !== next);
        now = Math.max(now, next.at);
        next.run();
        await settle();
      }
      now = target;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-schedules-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const input: ScheduleInput = {
  accountId: 'local',
  queryId: 7,
  queryName: 'Daily volume',
  parameters: { chain: 'base' },
  rule: { kind: 'hours', every: 1 },
  notify: { when: 'changed', measure: { kind: 'rows' } },
};

/** A scheduler over the folder, whose runner starts with `outcomes` in turn and ends with `rows` in turn. */
function open(clock: Clock, outcomes: StartOutcome[] = [], rows: number[] = []) {
  const started: Schedule[] = [];
  const notices: ScheduleNews[] = [];
  let runs = 0;
  const scheduler = new Scheduler({
    file: openScheduleFile(dir),
    clock,
    runner: {
      start: async (schedule) => {
        started.push(schedule);
        return outcomes.shift() ?? { kind: 'started', executionId: `run-${++runs}` };
      },
      finish: async (): Promise<RunEnd> => {
        const count = rows.shift() ?? 1;
        return { outcome: 'completed', rows: count, figure: count, message: `${count} rows.` };
      },
    },
    onChanged: () => undefined,
    onNotice: (notice) => notices.push(notice),
  });
  scheduler.start();
  return { scheduler, started, notices };
}

describe('the scheduler', () => {
  it('runs at each slot with its values, and notifies only when the row count changed', async () => {
    const time = testClock('2026-05-01T10:00:00Z');
    const { scheduler, started, notices } = open(time.clock, [], [3, 3, 4]);
    const schedule = scheduler.save(undefined, input)!;
    expect(schedule.nextRunAt).toBe('2026-05-01T11:00:00.000Z');
    await time.moveTo('2026-05-01T10:59:00Z');
    expect(started).toHaveLength(0);
    await time.moveTo('2026-05-01T13:00:00Z');
    expect(started.map((s) => s.parameters)).toEqual([{ chain: 'base' }, { chain: 'base' }, { chain: 'base' }]);
    expect(notices.map((n) => n.title)).toEqual(['Daily volume changed']);
    expect(notices[0]).toMatchObject({ executionId: 'run-3', previousExecutionId: 'run-2', body: '4 rows. (every hour)' });
    expect(scheduler.find(schedule.id)).toMatchObject({
      nextRunAt: '2026-05-01T14:00:00.000Z',
      lastResult: { executionId: 'run-3', figure: 4 },
    });
  });

  it('runs slots missed while the app was closed once, then counts the next from then', async () => {
    const before = testClock('2026-05-01T10:00:00Z');
    const first = open(before.clock);
    const schedule = first.scheduler.save(undefined, input)!;
    first.scheduler.dispose();

    // three days later, a new start on the same file
    const after = testClock('2026-05-04T10:20:00Z');
    const second = open(after.clock);
    await after.moveTo('2026-05-04T10:20:00Z');
    await settle();
    expect(second.started).toHaveLength(1);
    expect(second.scheduler.find(schedule.id)!.nextRunAt).toBe('2026-05-04T11:20:00.000Z');
    await after.moveTo('2026-05-04T11:19:00Z');
    expect(second.started).toHaveLength(1);
  });

  it('waits for an offline service with a growing wait, not at every tick, and runs once when it answers', async () => {
    const time = testClock('2026-05-01T10:00:00Z');
    const offline: StartOutcome = { kind: 'offline', reason: 'Waiting for the service: unreachable' };
    const { scheduler, started } = open(time.clock, [offline, offline, offline]);
    const schedule = scheduler.save(undefined, { ...input, rule: { kind: 'daily', at: '12:00' } })!;
    await time.moveTo('2026-05-01T12:00:00Z');
    expect(scheduler.find(schedule.id)).toMatchObject({ nextRunAt: '2026-05-01T12:01:00.000Z', lastRun: { outcome: 'offline' } });
    await time.moveTo('2026-05-01T12:10:00Z');
    // after 1, then 2, then 4 minutes: three failures, then the run
    expect(started.map((s) => s.id)).toHaveLength(4);
    expect(scheduler.find(schedule.id)).toMatchObject({ lastRun: { outcome: 'completed' } });
    expect(Date.parse(scheduler.find(schedule.id)!.nextRunAt!)).toBeGreaterThan(Date.parse('2026-05-02T00:00:00Z'));
  });

  it('stops a schedule the service refuses, says why, keeps it, and tries it again when resumed', async () => {
    const time = testClock('2026-05-01T10:00:00Z');
    const refused: StartOutcome = { kind: 'refused', code: 'not_found', reason: 'The service has no query 7 for this key.' };
    const { scheduler, started, notices } = open(time.clock, [refused]);
    const schedule = scheduler.save(undefined, { ...input, rule: { kind: 'minutes', every: 5 } })!;
    await time.moveTo('2026-05-01T11:00:00Z');
    expect(started).toHaveLength(1);
    expect(scheduler.find(schedule.id)).toMatchObject({
      stopped: { code: 'not_found', reason: 'The service has no query 7 for this key.' },
      nextRunAt: null,
    });
    expect(notices[0]?.title).toBe('Daily volume: schedule stopped');

    scheduler.pause(schedule.id, false);
    await time.moveTo('2026-05-01T11:00:00Z');
    expect(started).toHaveLength(2);
    expect(scheduler.find(schedule.id)).toMatchObject({ stopped: null, lastRun: { outcome: 'completed' } });
  });

  it('does not run a paused schedule, and keeps each change on disk', async () => {
    const time = testClock('2026-05-01T10:00:00Z');
    const { scheduler, started } = open(time.clock);
    const schedule = scheduler.save(undefined, input)!;
    scheduler.pause(schedule.id, true);
    await time.moveTo('2026-05-02T10:00:00Z');
    expect(started).toHaveLength(0);
    const reopened = openScheduleFile(dir).read();
    expect(reopened.schedules).toEqual([expect.objectContaining({ id: schedule.id, isPaused: true, nextRunAt: null })]);
    expect(scheduler.delete(schedule.id)).toBe(true);
    expect(openScheduleFile(dir).read().schedules).toEqual([]);
  });

  it('skips and counts lines of the file it cannot read, and keeps the others', () => {
    const time = testClock('2026-05-01T10:00:00Z');
    const { scheduler } = open(time.clock);
    scheduler.save(undefined, input);
    scheduler.dispose();
    const path = join(dir, 'schedules.jsonl');
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"id": "broken"\nnot json at all\n`);
    const again = open(time.clock);
    expect(again.scheduler.list()).toMatchObject({ skipped: 2, schedules: [expect.objectContaining({ queryId: 7 })] });
  });
});
