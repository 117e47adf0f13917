import type { Logger } from '../core/logging/logger.ts';

// When Querydesk looks for a new version and what it does with one: it checks at start and once a
// day, downloads in the background, and installs only when the app quits, once the user has said
// yes. It never interrupts work, and a feed that cannot be reached is a line in the log, no more.
// The updater is electron-updater's in the app; anything with the same few members in tests.

export interface Updater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdatePolicyOptions {
  updater: Updater;
  /** Packaged builds only: a development run has no feed and nothing to replace. */
  isPackaged: boolean;
  /** A feed in place of the one packed with the app (QUERYDESK_UPDATE_FEED), or null. */
  feedUrl: string | null;
  /** Asks whether to install `version` when the app quits; true when the user agrees. */
  askToInstall: (version: string) => Promise<boolean>;
  logger: Logger;
  intervalMs?: number;
}

export const DAILY_MS = 24 * 60 * 60 * 1000;

export interface UpdatePolicy {
  /** Checks now, then every day; false when updates are off. */
  start(): boolean;
  stop(): void;
}

export function createUpdatePolicy(options: UpdatePolicyOptions): UpdatePolicy {
  const { updater, logger } = options;
  let timer: NodeJS.Timeout | null = null;
  let asked: string | null = null;

  async function check(): Promise<void> {
    try {
      await updater.checkForUpdates();
    } catch (error) {
      logger.warn('Checking for updates failed', error);
    }
  }

  return {
    start() {
      if (!options.isPackaged) return false;
      if (options.feedUrl !== null) updater.setFeedURL({ provider: 'generic', url: options.feedUrl });
      updater.autoDownload = true;
      updater.autoInstallOnAppQuit = false;
      updater.on('error', (error) => logger.warn('Updating failed', error));
      updater.on('update-downloaded', (info) => {
        if (asked === info.version) return;
        asked = info.version;
        logger.info(`Querydesk ${info.version} is downloaded`);
        void options.askToInstall(info.version).then((agreed) => {
          updater.autoInstallOnAppQuit = agreed;
          logger.info(
            agreed ? `Querydesk ${info.version} will be installed on quit` : `The user declined Querydesk ${info.version} for now`,
          );
        });
      });
      void check();
      timer = setInterval(() => void check(), options.intervalMs ?? DAILY_MS);
      timer.unref();
      return true;
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
