import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { LocalService } from '../core/accounts/registry.ts';
import { createCore, type CoreOptions } from '../core/index.ts';
import { createLogger, type Logger } from '../core/logging/logger.ts';
import { openAppSettings, StoredAppSettings } from '../core/settings/app-settings.ts';
import { jsonFileStore } from '../core/settings/settings-store.ts';
import { createAccessToken } from './access-token.ts';
import { attachContractSocket } from './contract-socket.ts';
import { logsDirOf } from './data-paths.ts';
import { createExportDownloads } from './export-downloads.ts';
import { createProxyFetch } from './proxy-fetch.ts';
import { requestUrl } from './request-url.ts';
import { SECURITY_HEADERS } from './security-headers.ts';
import { createStaticHandler } from './static-files.ts';

// The browser host: the built renderer and the contract, on loopback only, for one token holder.

// required, not imported (eslint.config.ts says why)
const { createServer } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export interface WebHostOptions {
  /** 0 picks a free port. */
  port?: number;
  /** Core keeps its files in `<dataDir>/core`, beside the embedded service's, as in the Electron host. */
  dataDir: string;
  rendererDir: string;
  version: string;
  /** The embedded service the Local account talks to. */
  localService: LocalService;
  /** The day's log in `<dataDir>/logs`, when the caller needs it before the host starts (to mask the service's output). */
  logger?: Logger;
}

export interface WebHost {
  /** The URL to open: the origin with the token in its fragment (never sent to the server). */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = createAccessToken();
  let origin = '';
  let port = 0;
  const downloads = createExportDownloads(token);
  const server = pageServer(options.rendererDir, downloads, () => port);
  let socket: ReturnType<typeof attachContractSocket> | null = null;
  const { core, network, logger } = await openCore(options, downloads, (event, payload) => socket?.broadcast(event, payload));
  socket = attachContractSocket({
    server,
    origin: () => origin,
    token,
    handlers: core.handlers,
    onInvalidRequest: core.onInvalidRequest,
    onInternalError: (channel, error) => {
      logger.error(`${channel} failed:`, error);
      console.error(
        logger.redact(`Querydesk: ${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      );
    },
  });

  try {
    port = await listen(server, options.port ?? 0);
  } catch (error) {
    await socket.close();
    await core.dispose();
    await network.close();
    throw error;
  }
  origin = `http://${HOST}:${port}`;

  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    async close() {
      await socket?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await core.dispose();
      await network.close();
    },
  };
}

/** The HTTP server of the renderer's files and the exports' downloads, for requests to this host only. */
function pageServer(rendererDir: string, downloads: ReturnType<typeof createExportDownloads>, port: () => number): Server {
  const serveStatic = createStaticHandler(rendererDir);
  const server = createServer((request, response) => {
    const plain = (status: number, text: string) =>
      response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
    // A page of another site that rebinds its name to 127.0.0.1 arrives with its own Host.
    if (!isOwnHost(request.headers.host, port())) return plain(421, 'Misdirected request');
    const url = requestUrl(request);
    if (url === null) return plain(400, 'Malformed request target');
    if (downloads.handle(request, url, response)) return;
    serveStatic(request, url, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, SECURITY_HEADERS);
      response.end();
    });
  });
  // once listening, a failed accept (out of file descriptors) is the machine's state, not a reason to stop
  server.once('listening', () =>
    server.on('error', (error) => console.error(`Querydesk: could not accept a connection: ${error.message}`)),
  );
  return server;
}

/** Core with the browser host's settings file, network (the Settings proxy) and log. */
async function openCore(options: WebHostOptions, downloads: ReturnType<typeof createExportDownloads>, emit: CoreOptions['emit']) {
  const coreDir = join(options.dataDir, 'core');
  const settingsFile = join(coreDir, 'settings.json');
  const appSettings = openAppSettings(jsonFileStore(settingsFile, StoredAppSettings, () => ({})));
  const network = createProxyFetch(() => appSettings.current().proxy);
  const logsDir = logsDirOf(options.dataDir);
  const logger = options.logger ?? createLogger({ dir: logsDir });
  logger.info(`Querydesk ${options.version} starting (browser host)`);
  const core = await createCore({
    host: 'web',
    version: options.version,
    localService: options.localService,
    dataDir: coreDir,
    emit,
    exportDestinations: downloads.destinations,
    appSettings,
    fetch: network.fetch,
    paths: { dataDir: options.dataDir, logsDir, settingsFile },
    logger,
  });
  return { core, network, logger };
}

function isOwnHost(host: string | undefined, port: number): boolean {
  return host === `${HOST}:${port}`;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
