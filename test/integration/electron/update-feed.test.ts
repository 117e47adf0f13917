import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type ClientRequest, type IncomingMessage, type RequestOptions, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpExecutor } from 'builder-util-runtime';
import { DebUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/core/logging/logger.ts';
import { createUpdatePolicy } from '../../../main/electron/update-policy.ts';

// electron-updater itself, reading a generic feed from a loopback server, as the packaged app
// would. Two things cannot exist here and stand in: the app (an AppAdapter with a version and
// folders) and Electron's net module (Node's http does the requests).

class NodeRequests extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }
}

let server: Server;
let feedUrl: string;
let dir: string;
let feedVersion = '0.2.0';
const requested: string[] = [];

function updaterAt(version: string): DebUpdater {
  const app: AppAdapter = {
    version,
    name: 'Querydesk',
    isPackaged: true,
    appUpdateConfigPath: join(dir, 'app-update.yml'),
    userDataPath: join(dir, 'user-data'),
    baseCachePath: join(dir, 'cache'),
    whenReady: async () => undefined,
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
  const updater = new DebUpdater(null, app);
  (updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeRequests();
  // the check alone: installing a package is for the real app
  updater.autoDownload = false;
  return updater;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-updates-'));
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (!/^\/querydesk\/latest(-linux)?\.yml/.test(req.url ?? '')) return void res.writeHead(404).end();
    res
      .writeHead(200, { 'Content-Type': 'text/yaml' })
      .end(
        [
          `version: ${feedVersion}`,
          'files:',
          `  - url: Querydesk-${feedVersion}-amd64.deb`,
          '    sha512: 3dzVVNUOEV2qwsvcRN4DJ9P0bxCY0GFSjIqjGzcyLKxSGg4H1WvYTbnwWq1tZhkqqT6Z8ggZKY2J2j6lBQ6k2Q==',
          '    size: 1024',
          `path: Querydesk-${feedVersion}-amd64.deb`,
          'sha512: 3dzVVNUOEV2qwsvcRN4DJ9P0bxCY0GFSjIqjGzcyLKxSGg4H1WvYTbnwWq1tZhkqqT6Z8ggZKY2J2j6lBQ6k2Q==',
          "releaseDate: '2026-11-20T10:00:00.000Z'",
          '',
        ].join('\n'),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/querydesk`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the update feed', () => {
  it('is read from the configured generic feed, and a newer version is offered', async () => {
    const updater = updaterAt('0.1.0');
    const offered: string[] = [];
    updater.on('update-available', (info) => offered.push(info.version));
    requested.length = 0;
    const policy = createUpdatePolicy({
      updater,
      isPackaged: true,
      feedUrl,
      askToInstall: async () => false,
      logger: createLogger({ dir: join(dir, 'logs') }),
    });
    expect(policy.start()).toBe(true);
    policy.stop();
    updater.autoDownload = false;
    const result = await updater.checkForUpdates();
    expect(requested.some((url) => url.startsWith('/querydesk/latest-linux.yml'))).toBe(true);
    expect(result?.updateInfo.version).toBe('0.2.0');
    expect(result?.isUpdateAvailable).toBe(true);
    expect(offered).toContain('0.2.0');
  });

  it('offers nothing when the feed has the running version or an older one', async () => {
    feedVersion = '0.1.0';
    const updater = updaterAt('0.1.0');
    updater.setFeedURL({ provider: 'generic', url: feedUrl });
    let offered = false;
    updater.on('update-available', () => (offered = true));
    const result = await updater.checkForUpdates();
    expect(result?.isUpdateAvailable).toBe(false);
    expect(offered).toBe(false);
  });
});
