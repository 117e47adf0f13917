import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../main/core/logging/logger.ts';
import { createUpdatePolicy, DAILY_MS, type Updater } from '../../../main/electron/update-policy.ts';

// The policy with electron-updater replaced by a recorder; the real updater reading a real feed
// over loopback is in test/integration/electron/update-feed.test.ts.

class RecordingUpdater extends EventEmitter implements Updater {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  feeds: unknown[] = [];
  checks = 0;
  failNext = false;
  setFeedURL(options: { provider: 'generic'; url: string }): void {
    this.feeds.push(options);
  }
  async checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('net::ERR_NAME_NOT_RESOLVED');
    }
    return null;
  }
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`info ${message}`),
    warn: (message, error) => lines.push(`warn ${message}: ${(error as Error | undefined)?.message}`),
    error: (message) => lines.push(`error ${message}`),
    addSecret: () => undefined,
    recent: () => [],
    redact: (text) => text,
  };
}

let updater: RecordingUpdater;
let logger: ReturnType<typeof recordingLogger>;
beforeEach(() => {
  vi.useFakeTimers();
  updater = new RecordingUpdater();
  logger = recordingLogger();
});
afterEach(() => vi.useRealTimers());

describe('the update policy', () => {
  it('is off in a development run: no check, no feed', () => {
    const policy = createUpdatePolicy({
      updater,
      isPackaged: false,
      feedUrl: 'https://updates.example.com',
      askToInstall: async () => true,
      logger,
    });
    expect(policy.start()).toBe(false);
    vi.advanceTimersByTime(2 * DAILY_MS);
    expect(updater.checks).toBe(0);
    expect(updater.feeds).toEqual([]);
  });

  it('checks at start and once a day, downloading in the background, from the configured feed', () => {
    const policy = createUpdatePolicy({
      updater,
      isPackaged: true,
      feedUrl: 'https://updates.example.com/querydesk',
      askToInstall: async () => true,
      logger,
    });
    expect(policy.start()).toBe(true);
    expect(updater.feeds).toEqual([{ provider: 'generic', url: 'https://updates.example.com/querydesk' }]);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(updater.checks).toBe(1);
    vi.advanceTimersByTime(DAILY_MS - 1);
    expect(updater.checks).toBe(1);
    vi.advanceTimersByTime(1);
    expect(updater.checks).toBe(2);
    policy.stop();
    vi.advanceTimersByTime(DAILY_MS);
    expect(updater.checks).toBe(2);
  });

  it('keeps the packed feed when none is configured', () => {
    createUpdatePolicy({ updater, isPackaged: true, feedUrl: null, askToInstall: async () => true, logger }).start();
    expect(updater.feeds).toEqual([]);
    expect(updater.checks).toBe(1);
  });

  it('installs on quit only once the user agrees, and asks once per version', async () => {
    const answers = [false, true];
    const asked: string[] = [];
    createUpdatePolicy({
      updater,
      isPackaged: true,
      feedUrl: null,
      askToInstall: async (version) => {
        asked.push(version);
        return answers.shift() ?? false;
      },
      logger,
    }).start();
    updater.emit('update-downloaded', { version: '0.2.0' });
    await vi.waitFor(() => expect(logger.lines).toContain('info The user declined Querydesk 0.2.0 for now'));
    expect(updater.autoInstallOnAppQuit).toBe(false);
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(asked).toEqual(['0.2.0']);

    updater.emit('update-downloaded', { version: '0.3.0' });
    await vi.waitFor(() => expect(updater.autoInstallOnAppQuit).toBe(true));
    expect(asked).toEqual(['0.2.0', '0.3.0']);
  });

  it('logs a feed that cannot be reached, and tries again the next day', async () => {
    updater.failNext = true;
    createUpdatePolicy({ updater, isPackaged: true, feedUrl: null, askToInstall: async () => true, logger }).start();
    await vi.waitFor(() => expect(logger.lines).toContain('warn Checking for updates failed: net::ERR_NAME_NOT_RESOLVED'));
    updater.emit('error', new Error('sha512 checksum mismatch'));
    expect(logger.lines).toContain('warn Updating failed: sha512 checksum mismatch');
    vi.advanceTimersByTime(DAILY_MS);
    expect(updater.checks).toBe(2);
  });
});
