import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { stop, webHost, type Started } from './processes.ts';

// A browser host of the test's own, on a fresh data folder: for tests that need the app as a new
// user first meets it (the shared host keeps what earlier tests left: tabs, views, drafts), or that
// restart it.

export interface OwnHost {
  /** The address to open, with its access token. */
  url: () => string;
  /** The host's data folder (`--data-dir`): core keeps its files in `core/` under it. */
  dataDir: string;
  /**
   * Stops the host and starts it again on the same data folder (a new token, so a new address);
   * `whileStopped` runs in between, as time passing while the app is closed.
   */
  restart: (whileStopped?: () => Promise<void>) => Promise<void>;
}

export const test = base.extend<{ ownHost: OwnHost }>({
  // Empty: Playwright reads the fixtures a fixture needs from this pattern, and this one needs none.
  ownHost: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'querydesk-own-host-'));
    let host: Started = await webHost(join(dir, 'app'), false, 'The browser host of this test');
    try {
      await use({
        url: () => host.match[1]!,
        dataDir: join(dir, 'app'),
        restart: async (whileStopped) => {
          await stop(host.child);
          await whileStopped?.();
          host = await webHost(join(dir, 'app'), false, 'The browser host of this test, again');
        },
      });
    } finally {
      await stop(host.child);
      await rm(dir, { recursive: true, force: true });
    }
  },
});
