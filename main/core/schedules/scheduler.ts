import { randomUUID } from 'node:crypto';
import { doubled } from '../../common/backoff.ts';
import type { Schedule, ScheduleNews } from '../../contract/index.ts';
import { isDue } from './next-run.ts';
import type { ScheduleFile } from './schedule-file.ts';
import {
  afterEnd,
  afterStart,
  created,
  edited,
  firing,
  noticeOf,
  paused,
  startNotice,
  type RunEnd,
  type ScheduleInput,
  type StartOutcome,
} from './schedule-state.ts';

// Runs the schedules while the app runs. One timer, set for the earliest next run (and at least
// once a minute, so a machine waking from sleep or a clock put forward is noticed); time comes from
// an injected clock, so tests move it without waiting. Each change is written to disk at once.

export interface Clock {
  now(): Date;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Starts a schedule's run on its service, and waits for one to end (again after a restart). */
export interface ScheduleRunner {
  start(schedule: Schedule): Promise<StartOutcome>;
  finish(schedule: Schedule, executionId: string): Promise<RunEnd>;
}

export interface SchedulerOptions {
  file: ScheduleFile;
  clock: Clock;
  runner: ScheduleRunner;
  onChanged: (list: { schedules: Schedule[]; skipped: number }) => void;
  onNotice: (news: ScheduleNews) => void;
}

const LONGEST_SLEEP_MS = 60_000;
/** Offline: tried again after a minute, doubled per failure up to half an hour, or at the next slot if sooner. */
const OFFLINE_FIRST_MS = 60_000;
const OFFLINE_CEILING_MS = 30 * 60_000;

export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #skipped: number;
  #schedules: Schedule[];
  readonly #running = new Set<string>();
  readonly #offlineFailures = new Map<string, number>();
  #timer: unknown = null;
  #disposed = false;

  constructor(options: SchedulerOptions) {
    this.#options = options;
    const { schedules, skipped } = options.file.read();
    this.#schedules = schedules;
    this.#skipped = skipped;
  }

  /** Goes on with runs a restart interrupted, then runs what is due (missed slots once) and keeps time. */
  start(): void {
    for (const schedule of this.#schedules) {
      const { lastRun } = schedule;
      if (lastRun?.outcome === 'running' && lastRun.executionId) void this.#finish(schedule.id, lastRun.executionId);
    }
    this.#tick();
  }

  list(): { schedules: Schedule[]; skipped: number } {
    return { schedules: [...this.#schedules], skipped: this.#skipped };
  }

  find(id: string): Schedule | null {
    return this.#schedules.find((s) => s.id === id) ?? null;
  }

  save(id: string | undefined, input: ScheduleInput): Schedule | null {
    const now = this.#options.clock.now();
    if (id === undefined) return this.#put(created(randomUUID(), input, now));
    const schedule = this.find(id);
    return schedule && this.#put(edited(schedule, input, now));
  }

  pause(id: string, pause: boolean): Schedule | null {
    const schedule = this.find(id);
    if (schedule) this.#offlineFailures.delete(id);
    return schedule && this.#put(paused(schedule, pause, this.#options.clock.now()));
  }

  delete(id: string): boolean {
    const before = this.#schedules.length;
    this.#schedules = this.#schedules.filter((s) => s.id !== id);
    if (this.#schedules.length === before) return false;
    this.#changed();
    return true;
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#timer !== null) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #put(schedule: Schedule): Schedule {
    if (this.find(schedule.id)) this.#replace(schedule);
    else this.#schedules.push(schedule);
    this.#changed();
    return schedule;
  }

  #replace(schedule: Schedule): void {
    this.#schedules = this.#schedules.map((s) => (s.id === schedule.id ? schedule : s));
  }

  #changed(): void {
    this.#options.file.write(this.#schedules);
    this.#options.onChanged(this.list());
    this.#arm();
  }

  #arm(): void {
    const { clock } = this.#options;
    if (this.#timer !== null) clock.clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#disposed) return;
    const waiting = this.#schedules.filter((s) => s.nextRunAt !== null && !this.#running.has(s.id));
    if (waiting.length === 0) return;
    const earliest = Math.min(...waiting.map((s) => Date.parse(s.nextRunAt!)));
    const delay = Math.max(0, Math.min(LONGEST_SLEEP_MS, earliest - clock.now().getTime()));
    this.#timer = clock.setTimeout(() => this.#tick(), delay);
  }

  #tick(): void {
    this.#timer = null;
    if (this.#disposed) return;
    const now = this.#options.clock.now();
    for (const schedule of this.#schedules) {
      if (!schedule.isPaused && !schedule.stopped && !this.#running.has(schedule.id) && isDue(schedule.nextRunAt, now)) {
        void this.#fire(schedule, now);
      }
    }
    this.#arm();
  }

  async #fire(schedule: Schedule, now: Date): Promise<void> {
    this.#running.add(schedule.id);
    this.#replace(firing(schedule, now));
    let start: StartOutcome;
    try {
      start = await this.#options.runner.start(schedule);
    } catch (error) {
      start = { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
    const current = this.find(schedule.id);
    if (!current || this.#disposed) return void this.#running.delete(schedule.id);
    const failures = start.kind === 'offline' ? (this.#offlineFailures.get(schedule.id) ?? 0) + 1 : 0;
    this.#offlineFailures.set(schedule.id, failures);
    const retryAt = new Date(now.getTime() + doubled(OFFLINE_FIRST_MS, failures - 1, OFFLINE_CEILING_MS));
    this.#replace(afterStart(current, start, now, retryAt));
    const notice = startNotice(current, start);
    if (notice) this.#options.onNotice(notice);
    if (start.kind === 'started') return this.#finish(schedule.id, start.executionId, true);
    this.#running.delete(schedule.id);
    this.#changed();
  }

  async #finish(id: string, executionId: string, isWritten = false): Promise<void> {
    this.#running.add(id);
    if (isWritten) this.#changed();
    const schedule = this.find(id)!;
    let end: RunEnd;
    try {
      end = await this.#options.runner.finish(schedule, executionId);
    } catch (error) {
      end = { outcome: 'failed', rows: null, figure: null, message: error instanceof Error ? error.message : String(error) };
    }
    this.#running.delete(id);
    const current = this.find(id);
    if (!current || this.#disposed) return;
    this.#replace(afterEnd(current, executionId, end));
    this.#changed();
    const notice = noticeOf(current, executionId, end);
    if (notice) this.#options.onNotice(notice);
  }
}
