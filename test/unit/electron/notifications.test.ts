import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionRecord, ScheduleNotice } from '../../../main/contract/index.ts';
import { proofread } from '../words/proofread.ts';

// The desktop notification of a finished execution, with Electron's Notification replaced.

const fake = vi.hoisted(() => {
  const shown: { title: string; body: string; click: (() => void) | null }[] = [];
  class Notification {
    static supported = true;
    static isSupported() {
      return Notification.supported;
    }
    options: { title: string; body: string };
    click: (() => void) | null = null;
    constructor(options: { title: string; body: string }) {
      this.options = options;
    }
    on(event: string, listener: () => void) {
      if (event === 'click') this.click = listener;
    }
    show() {
      shown.push({ ...this.options, click: this.click });
    }
  }
  return { shown, Notification };
});

vi.mock('electron', () => ({ Notification: fake.Notification }));

const { createFinishedNotifier, createScheduleNotifier, notificationText } = await import('../../../main/electron/notifications.ts');

function record(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    accountId: 'local',
    executionId: 'E1',
    queryId: 42,
    parameters: {},
    state: 'QUERY_STATE_COMPLETED',
    isFinished: true,
    submittedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:03.000Z',
    error: null,
    totalRowCount: 5000,
    ...overrides,
  };
}

function fakeWindow(state: { focused?: boolean; visible?: boolean; minimized?: boolean } = {}) {
  const log: string[] = [];
  let minimized = state.minimized ?? false;
  return {
    log,
    isDestroyed: () => false,
    isFocused: () => state.focused ?? true,
    isVisible: () => state.visible ?? true,
    isMinimized: () => minimized,
    restore: () => {
      minimized = false;
      log.push('restore');
    },
    show: () => log.push('show'),
    focus: () => log.push('focus'),
  };
}

type AnyWindow = ReturnType<Parameters<typeof createFinishedNotifier>[0]['getWindow']>;

beforeEach(() => {
  fake.shown.length = 0;
  fake.Notification.supported = true;
});

describe('the finished-execution notification', () => {
  it('stays quiet while the user looks at that very execution in the focused window', () => {
    const notify = createFinishedNotifier({ getWindow: () => fakeWindow() as unknown as AnyWindow, isEnabled: () => true, show: () => {} });
    notify({ record: record(), isViewed: true });
    expect(fake.shown).toEqual([]);
  });

  it('shows when the user looks at another execution, another app, or no window at all', () => {
    notify(fakeWindow(), false);
    notify(fakeWindow({ focused: false }), true);
    notify(fakeWindow({ minimized: true }), true);
    notify(null, true);
    expect(fake.shown.map((n) => n.title)).toEqual(['Query 42 finished', 'Query 42 finished', 'Query 42 finished', 'Query 42 finished']);
    expect(fake.shown[0]?.body).toBe('5,000 rows.');

    function notify(window: ReturnType<typeof fakeWindow> | null, isViewed: boolean) {
      createFinishedNotifier({ getWindow: () => window as unknown as AnyWindow, isEnabled: () => true, show: () => {} })({
        record: record(),
        isViewed,
      });
    }
  });

  it('brings the window back when clicked, to show that execution', () => {
    const window = fakeWindow({ minimized: true, focused: false });
    const shown: ExecutionRecord[] = [];
    createFinishedNotifier({ getWindow: () => window as unknown as AnyWindow, isEnabled: () => true, show: (r) => shown.push(r) })({
      record: record(),
      isViewed: false,
    });
    expect(shown).toEqual([]);
    fake.shown[0]?.click?.();
    expect(window.log).toEqual(['restore', 'show', 'focus']);
    expect(shown).toEqual([record()]);
  });

  it('says nothing when the user turned notifications off in Settings', () => {
    let enabled = false;
    const notify = createFinishedNotifier({ getWindow: () => null, isEnabled: () => enabled, show: () => {} });
    notify({ record: record(), isViewed: false });
    expect(fake.shown).toEqual([]);
    enabled = true;
    notify({ record: record(), isViewed: false });
    expect(fake.shown).toHaveLength(1);
  });

  it('says nothing where the system has no notifications, or for a run the user cancelled', () => {
    const notify = createFinishedNotifier({ getWindow: () => null, isEnabled: () => true, show: () => {} });
    notify({ record: record({ state: 'QUERY_STATE_CANCELLED' }), isViewed: false });
    fake.Notification.supported = false;
    notify({ record: record(), isViewed: false });
    expect(fake.shown).toEqual([]);
  });

  it('words each ending', () => {
    expect(notificationText(record({ state: 'QUERY_STATE_FAILED', error: { type: 'syntax', message: 'line 1:8: oops' } }))).toEqual({
      title: 'Query 42 failed',
      body: 'line 1:8: oops',
    });
    expect(notificationText(record({ state: 'QUERY_STATE_COMPLETED_PARTIAL', totalRowCount: 1 }))).toEqual({
      title: 'Query 42 finished with a partial result',
      body: '1 row; the service cut the result short.',
    });
    expect(notificationText(record({ state: 'QUERY_STATE_EXPIRED' }))).toEqual({
      title: 'Query 42 ended',
      body: 'Its result has expired; run the query again.',
    });
    expect(notificationText(record({ totalRowCount: null }))).toEqual({ title: 'Query 42 finished', body: 'The result is ready.' });
    expect(notificationText(record({ state: 'QUERY_STATE_COMPLETED_PARTIAL', totalRowCount: null }))?.body).toBe(
      'Rows are missing; the service cut the result short.',
    );
    for (const state of [
      'QUERY_STATE_COMPLETED',
      'QUERY_STATE_COMPLETED_PARTIAL',
      'QUERY_STATE_FAILED',
      'QUERY_STATE_EXPIRED',
      'QUERY_STATE_NEW',
    ]) {
      for (const totalRowCount of [null, 1, 5000]) expect(proofread(notificationText(record({ state, totalRowCount }))!.body)).toEqual([]);
    }
  });
});

describe('the notification of a scheduled refresh', () => {
  const notice: ScheduleNotice = {
    id: 'n1',
    scheduleId: 's1',
    accountId: 'local',
    queryId: 42,
    queryName: 'Daily volume',
    executionId: 'E2',
    previousExecutionId: 'E1',
    outcome: 'completed',
    title: 'Daily volume changed',
    body: '12 rows. (every hour)',
  };

  it('shows its title and body unless the window is in use, and brings the window to the run when clicked', () => {
    const shown: ScheduleNotice[] = [];
    const inUse = fakeWindow();
    createScheduleNotifier({ getWindow: () => inUse as unknown as AnyWindow, isEnabled: () => true, show: (n) => shown.push(n) })(notice);
    expect(fake.shown).toEqual([]);

    const away = fakeWindow({ focused: false });
    createScheduleNotifier({ getWindow: () => away as unknown as AnyWindow, isEnabled: () => true, show: (n) => shown.push(n) })(notice);
    expect(fake.shown.map(({ title, body }) => ({ title, body }))).toEqual([
      { title: 'Daily volume changed', body: '12 rows. (every hour)' },
    ]);
    fake.shown[0]?.click?.();
    expect(away.log).toEqual(['show', 'focus']);
    expect(shown).toEqual([notice]);
  });

  it('says nothing when notifications are off in Settings', () => {
    createScheduleNotifier({ getWindow: () => null, isEnabled: () => false, show: () => {} })(notice);
    expect(fake.shown).toEqual([]);
  });
});
