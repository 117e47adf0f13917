import '../service/thread/size-thread-pool.ts';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, screen, session, shell } from 'electron';
import type { Core } from '../core/index.ts';
import { createLogger, type Logger } from '../core/logging/logger.ts';
import { openAppSettings, StoredAppSettings } from '../core/settings/app-settings.ts';
import type { SettingsStore } from '../core/settings/settings-store.ts';
import { shrinkHeapAtRest } from '../service/thread/shrink-heap.ts';
import { startBackend } from './backend.ts';
import { holdCloseForPage } from './close-handshake.ts';
import { DEEP_LINK_SCHEME, deepLinkIn, LinkRouter, parseDeepLink } from './deep-link.ts';
import { applyDesktopSettings } from './desktop-settings.ts';
import { saveDialogDestinations } from './export-dialog.ts';
import { openExternalSafely } from './external.ts';
import { createEventSender, registerInvokeHandler, type InvokeHandler } from './ipc.ts';
import { installApplicationMenu } from './menu.ts';
import { noSuchAccountBox } from './message-boxes.ts';
import { denyPermissions, guardWebContents } from './navigation.ts';
import { createFinishedNotifier, createScheduleNotifier } from './notifications.ts';
import { handleAppProtocol, registerAppScheme } from './protocol.ts';
import { electronSettingsStore, openSettingsFile } from './settings-store.ts';
import { startUpdates } from './updates.ts';
import { noPlacements, placementFor, rememberPlacement, WindowPlacements } from './window-placement.ts';
import { createMainWindow } from './window.ts';

// This file is bundled to out/main/; the preload and renderer builds sit next to it.
const PRELOAD_PATH = join(import.meta.dirname, '../preload/index.cjs');
const RENDERER_DIR = join(import.meta.dirname, '../renderer');

let mainWindow: BrowserWindow | null = null;
let backend: Core | null = null;
let invokes: InvokeHandler | null = null;
let shutdown: 'running' | 'pending' | 'done' = 'running';
/** A quit asked (the menu, Cmd+Q): the window's held close puts it off, and goes on with it after. */
let quitting = false;
let logger: Logger | null = null;
let emitEvent: ReturnType<typeof createEventSender> | null = null;
let placements: SettingsStore<WindowPlacements> | null = null;
const links = new LinkRouter(deepLinkIn(process.argv));

app.enableSandbox();
registerAppScheme();
app.on('web-contents-created', (_event, contents) => guardWebContents(contents));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  // macOS hands links over by event, also the one the app was launched with
  app.on('open-url', (event, url) => {
    event.preventDefault();
    links.receive(parseDeepLink(url));
  });
  app.on('second-instance', (_event, argv) => {
    focusMainWindow();
    links.receive(deepLinkIn(argv));
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (backend !== null && BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('will-quit', (event) => {
    if (shutdown === 'done') return;
    // Hold the quit until the core and the service have closed their databases.
    event.preventDefault();
    if (shutdown === 'pending') return;
    shutdown = 'pending';
    void stopBackend().finally(() => {
      shutdown = 'done';
      app.quit();
    });
  });
  app.whenReady().then(start).catch(abortStartup);
}

async function start(): Promise<void> {
  denyPermissions(session.defaultSession);
  handleAppProtocol(RENDERER_DIR);
  installApplicationMenu({ isMac: process.platform === 'darwin', withDevTools: !app.isPackaged });
  const emit = createEventSender(() => mainWindow);
  emitEvent = emit;
  const dataDir = app.getPath('userData');
  const logsDir = app.getPath('logs');
  const log = createLogger({ dir: logsDir });
  logger = log;
  log.info(`Querydesk ${app.getVersion()} starting on ${process.platform} ${process.arch}`);
  const settingsFile = openSettingsFile(dataDir);
  const appSettings = openAppSettings(electronSettingsStore(settingsFile, 'app', StoredAppSettings, () => ({})));
  placements = electronSettingsStore(settingsFile, 'window', WindowPlacements, noPlacements);
  await applyDesktopSettings(appSettings);
  backend = await startBackend({
    dataDir,
    logsDir,
    version: app.getVersion(),
    settingsFile,
    appSettings,
    logger: log,
    openFolder: async (path) => (await shell.openPath(path)) || null,
    openUrl: (url) => void openExternalSafely(url),
    emit,
    onExecutionFinished: createFinishedNotifier({
      getWindow: () => mainWindow,
      isEnabled: () => appSettings.current().notifyOnFinish,
      show: ({ accountId, executionId }) => emit('execution:show', { accountId, executionId }),
    }),
    onScheduleNotice: createScheduleNotifier({
      getWindow: () => mainWindow,
      isEnabled: () => appSettings.current().notifyOnFinish,
      show: ({ accountId, executionId }) => executionId !== null && emit('execution:show', { accountId, executionId }),
    }),
    exportDestinations: saveDialogDestinations(
      () => mainWindow,
      () => appSettings.current().exportFolder,
    ),
  });
  invokes = registerInvokeHandler({
    handlers: backend.handlers,
    getWindow: () => mainWindow,
    onInternalError: (channel, error) => log.error(`${channel} failed:`, error),
    onInvalidRequest: backend.onInvalidRequest,
  });
  openMainWindow();
  startUpdates({ logger: log, getWindow: () => mainWindow });
  // core's heap grows with a large result or a burst of work, as the browser host's does
  shrinkHeapAtRest();
}

function openMainWindow(): void {
  const placement = placements === null ? null : placementFor(placements.read(), screen.getAllDisplays());
  const window = createMainWindow({ preloadPath: PRELOAD_PATH, title: app.getName(), placement });
  // kept per display: the one the window is on as it closes
  window.on('close', () => {
    if (placements === null) return;
    const bounds = window.getNormalBounds();
    placements.write(rememberPlacement(placements.read(), screen.getDisplayMatching(bounds), { bounds, maximized: window.isMaximized() }));
  });
  holdCloseForPage(window, () => {
    if (quitting) app.quit();
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
  window.once('ready-to-show', () => links.ready(linkDestination));
}

const linkDestination = {
  async accounts() {
    const listed = await backend?.handlers['accounts:list']({});
    return listed?.ok ? listed.data.accounts : [];
  },
  open(accountId: string, queryId: number) {
    focusMainWindow();
    emitEvent?.('query:open', { accountId, queryId });
  },
  noSuchAccount(name: string, queryId: number) {
    const box = noSuchAccountBox(name, queryId);
    void (mainWindow === null ? dialog.showMessageBox(box) : dialog.showMessageBox(mainWindow, box));
  },
};

/** A second launch brings the running app forward instead of opening a second database. */
function focusMainWindow(): void {
  if (mainWindow === null) {
    if (backend !== null) openMainWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

async function stopBackend(): Promise<void> {
  const answering = invokes;
  invokes = null;
  answering?.unregister();
  await answering?.settled();
  const current = backend;
  backend = null;
  await current?.dispose().catch((error: unknown) => logger?.error('Shutdown failed:', error));
  logger?.info('Querydesk stopped');
}

function abortStartup(error: unknown): void {
  console.error('[querydesk] could not start:', error);
  logger?.error('Could not start:', error);
  dialog.showErrorBox('Querydesk could not start', error instanceof Error ? error.message : String(error));
  app.exit(1);
}
