import { Notification, type BrowserWindow } from 'electron';
import type { ExecutionRecord, ScheduleNotice } from '../contract/index.ts';
import type { FinishedExecution } from '../core/index.ts';

// A desktop notification when an execution the user started ends while they look elsewhere: at
// another app, or at another execution in this one. A run the user cancelled needs no news.

export function createFinishedNotifier(options: {
  getWindow: () => BrowserWindow | null;
  /** The user's choice in Settings. */
  isEnabled: () => boolean;
  /** A click on the notification: the window comes forward and should show that execution. */
  show: (record: ExecutionRecord) => void;
}): (finished: FinishedExecution) => void {
  const { getWindow } = options;
  return ({ record, isViewed }) => {
    const message = notificationText(record);
    const window = getWindow();
    const windowInUse = window !== null && !window.isDestroyed() && window.isVisible() && !window.isMinimized() && window.isFocused();
    if (message === null || (windowInUse && isViewed) || !options.isEnabled() || !Notification.isSupported()) return;
    const notification = new Notification(message);
    notification.on('click', () => {
      if (bringForward(getWindow)) options.show(record);
    });
    notification.show();
  };
}

/**
 * A desktop notification of a scheduled refresh with news, unless the window is in use (the page's
 * own notice says it there). A click brings the window forward to the run's result.
 */
export function createScheduleNotifier(options: {
  getWindow: () => BrowserWindow | null;
  isEnabled: () => boolean;
  show: (notice: ScheduleNotice) => void;
}): (notice: ScheduleNotice) => void {
  return (notice) => {
    const window = options.getWindow();
    const windowInUse = window !== null && !window.isDestroyed() && window.isVisible() && !window.isMinimized() && window.isFocused();
    if (windowInUse || !options.isEnabled() || !Notification.isSupported()) return;
    const notification = new Notification({ title: notice.title, body: notice.body.slice(0, 200) });
    notification.on('click', () => {
      if (bringForward(options.getWindow)) options.show(notice);
    });
    notification.show();
  };
}

/** The window restored, shown and focused; false when there is none. */
function bringForward(getWindow: () => BrowserWindow | null): boolean {
  const current = getWindow();
  if (current === null || current.isDestroyed()) return false;
  if (current.isMinimized()) current.restore();
  current.show();
  current.focus();
  return true;
}

export function notificationText(record: ExecutionRecord): { title: string; body: string } | null {
  const query = `Query ${record.queryId}`;
  switch (record.state) {
    case 'QUERY_STATE_CANCELLED':
      return null;
    case 'QUERY_STATE_COMPLETED':
      return {
        title: `${query} finished`,
        body: record.totalRowCount === null ? 'The result is ready.' : `${rowCount(record.totalRowCount)}.`,
      };
    case 'QUERY_STATE_COMPLETED_PARTIAL':
      return {
        title: `${query} finished with a partial result`,
        body: `${record.totalRowCount === null ? 'Rows are missing' : rowCount(record.totalRowCount)}; the service cut the result short.`,
      };
    case 'QUERY_STATE_FAILED':
      return { title: `${query} failed`, body: (record.error?.message ?? 'The execution failed.').slice(0, 200) };
    default:
      return {
        title: `${query} ended`,
        body: record.error?.message.slice(0, 200) ?? ENDED[record.state] ?? `It ended in a state this app does not know (${record.state}).`,
      };
  }
}

const ENDED: Record<string, string> = { QUERY_STATE_EXPIRED: 'Its result has expired; run the query again.' };

function rowCount(rows: number): string {
  return `${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`;
}
