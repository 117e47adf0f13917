import { app, dialog, type BrowserWindow } from 'electron';
import electronUpdater from 'electron-updater';
import type { Logger } from '../core/logging/logger.ts';
import { updateReadyBox } from './message-boxes.ts';
import { createUpdatePolicy, type UpdatePolicy } from './update-policy.ts';

// electron-updater under the app's update policy. The feed is the generic one packed with the app
// (electron-builder.yml `publish`), or QUERYDESK_UPDATE_FEED for a company's own mirror.

export function startUpdates(options: { logger: Logger; getWindow: () => BrowserWindow | null }): UpdatePolicy {
  const { logger } = options;
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = {
    info: (message?: unknown) => logger.info(`updates: ${String(message)}`),
    warn: (message?: unknown) => logger.warn(`updates: ${String(message)}`),
    error: (message?: unknown) => logger.error(`updates: ${String(message)}`),
  };
  const policy = createUpdatePolicy({
    updater: autoUpdater,
    isPackaged: app.isPackaged,
    feedUrl: process.env.QUERYDESK_UPDATE_FEED || null,
    logger,
    askToInstall: async (version) => {
      const box = updateReadyBox(version);
      const window = options.getWindow();
      const { response } = window === null ? await dialog.showMessageBox(box) : await dialog.showMessageBox(window, box);
      return response === 0;
    },
  });
  policy.start();
  return policy;
}
