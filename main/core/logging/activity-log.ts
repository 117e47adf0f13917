import type { CacheStatus, ContractError, ExportFormat, ExportProgress, PendingEdit, SyncState } from '../../contract/index.ts';
import type { Logger } from './logger.ts';

// What the day's log says happened after the start line, for a bug report to be read against: when
// an account's service could not be reached and when it came back, downloads that failed or went on,
// edits that met a newer version and what the user chose, and exports. The logger masks keys.

const CHOICES = { mine: 'kept mine over the service’s version', theirs: 'took the service’s version', copy: 'copied mine to a new query' };

export interface ExportStart {
  accountId: string;
  executionId: string;
  format: ExportFormat;
  fileName: string;
}

export class ActivityLog {
  readonly #log: Logger;
  readonly #label: (accountId: string) => string;
  readonly #now: () => Date;
  readonly #unreachable = new Map<string, { status: SyncState['status']; since: string }>();
  /** Each download's last state, with the rows it had loaded (a failed one's status no longer says). */
  readonly #downloads = new Map<string, { state: CacheStatus['state']; rows: number }>();
  /** Downloads that failed or went on from kept rows: their end is logged too. */
  readonly #troubled = new Set<string>();
  readonly #exports = new Map<string, string>();

  constructor(log: Logger, label: (accountId: string) => string, now: () => Date = () => new Date()) {
    this.#log = log;
    this.#label = label;
    this.#now = now;
  }

  /** An account's state of sync changed: offline and refused periods are logged at their start and end. */
  sync(state: SyncState): void {
    const label = this.#label(state.accountId);
    const was = this.#unreachable.get(state.accountId);
    if (state.status === 'offline' || state.status === 'key_refused') {
      if (was?.status === state.status) return;
      const since = state.offlineSince ?? this.#now().toISOString();
      this.#unreachable.set(state.accountId, { status: state.status, since });
      const what = state.status === 'offline' ? 'offline' : 'the service refuses the key';
      this.#log.warn(`${label}: ${what} since ${since}: ${state.reason ?? 'no reason given'}`);
    } else if (state.status === 'online' && was) {
      this.#unreachable.delete(state.accountId);
      const seconds = Math.round((this.#now().getTime() - Date.parse(was.since)) / 1000);
      this.#log.info(
        `${label}: online again after ${seconds} s (${was.status === 'offline' ? 'offline' : 'key refused'} since ${was.since})`,
      );
    }
  }

  /** A result's download in the cache moved on: failures, restarts and cancels are logged. */
  download(status: CacheStatus): void {
    const key = `${status.accountId}/${status.executionId}`;
    const was = this.#downloads.get(key);
    const loaded = Math.max(status.rowsLoaded, was?.state === 'downloading' ? was.rows : 0);
    this.#downloads.set(key, { state: status.state, rows: loaded });
    if (status.state === was?.state) return;
    const what = `${this.#label(status.accountId)}: download of result ${status.executionId}`;
    const rows = `${loaded} of ${status.totalRowCount ?? '?'} rows`;
    switch (status.state) {
      case 'downloading':
        if (was?.state === 'failed' || was?.state === 'cancelled') this.#log.info(`${what} started again`);
        return;
      case 'interrupted':
        this.#troubled.add(key);
        this.#log.warn(
          `${what} paused after ${rows}: ${status.error ?? 'no reason given'}; it goes on ${status.resumesAt ? `at ${status.resumesAt}, once the rate limit allows` : 'when the service answers'}`,
        );
        return;
      case 'failed':
        this.#troubled.add(key);
        this.#log.warn(`${what} failed after ${rows}: ${status.error ?? 'no reason given'}`);
        return;
      case 'cancelled':
        this.#log.info(`${what} cancelled after ${rows}`);
        return;
      case 'cached':
        if (this.#troubled.delete(key)) this.#log.info(`${what} done: ${status.rowsLoaded} rows`);
        this.#downloads.delete(key);
        return;
      default:
        this.#downloads.delete(key);
    }
  }

  /** A download goes on from rows an earlier one left on disk. */
  downloadResumed(accountId: string, executionId: string, fromRow: number): void {
    const key = `${accountId}/${executionId}`;
    this.#troubled.add(key);
    // this line says more than "started again" would
    this.#downloads.set(key, { state: 'downloading', rows: fromRow });
    this.#log.info(`${this.#label(accountId)}: download of result ${executionId} resumed at row ${fromRow}, from the rows kept on disk`);
  }

  /** A save met a newer version on the service: nothing was sent, the user is to choose. */
  conflict(accountId: string, pending: PendingEdit): void {
    const theirs = pending.theirs === null ? '' : ` (now version ${pending.theirs.version})`;
    this.#log.warn(
      `${this.#label(accountId)}: query #${pending.queryId} changed on the service since version ${pending.baseVersion}${theirs}; the edit waits for a choice`,
    );
  }

  conflictResolved(accountId: string, queryId: number, choice: keyof typeof CHOICES, error: ContractError | null): void {
    const label = this.#label(accountId);
    if (error === null) this.#log.info(`${label}: query #${queryId}: the user ${CHOICES[choice]}`);
    else this.#log.warn(`${label}: query #${queryId}: the user's choice (${choice}) failed: ${error.message}`);
  }

  exportStarted(exportId: string, start: ExportStart): void {
    const what = `${this.#label(start.accountId)}: export ${exportId} of result ${start.executionId} as ${start.format} to ${start.fileName}`;
    this.#exports.set(exportId, what);
    this.#log.info(`${what} started`);
  }

  /**
   * An export that never started: its request was refused (a bad field, an unknown result) or no
   * file was chosen. The request may be anything a renderer sent, so only its ids are named.
   */
  exportRefused(request: { accountId?: unknown; executionId?: unknown }, error: ContractError): void {
    const account = typeof request.accountId === 'string' ? `${this.#label(request.accountId.slice(0, 80))}: ` : '';
    const result = typeof request.executionId === 'string' ? ` of result ${request.executionId.slice(0, 80)}` : '';
    this.#log.warn(`${account}export${result} did not start: ${error.message}`);
  }

  /** Only the end of an export is logged from its progress: done, failed or cancelled. */
  exportProgress(progress: ExportProgress): void {
    const what = this.#exports.get(progress.exportId) ?? `export ${progress.exportId}`;
    if (progress.state !== 'done' && progress.state !== 'failed' && progress.state !== 'cancelled') return;
    this.#exports.delete(progress.exportId);
    const written = `${progress.rowsWritten} rows, ${progress.bytesWritten} bytes`;
    if (progress.state === 'failed') this.#log.warn(`${what} failed after ${written}: ${progress.error ?? 'no reason given'}`);
    else this.#log.info(`${what} ${progress.state}: ${written}`);
  }
}
