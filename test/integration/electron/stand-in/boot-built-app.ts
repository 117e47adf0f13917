import { registerHooks } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IPC_INVOKE } from '../../../../main/contract/names.ts';
import { loadPreload } from './preload-sandbox.ts';

// Run in its own Node process by built-app.test.ts: boots the built out/main/index.js with the
// stand-in `electron` put in place by a module resolution hook (so every importer, electron-store
// included, gets it, exactly as `import ... from 'electron'` is written in the bundle), plays the
// renderer through the built preload, quits, and prints what it saw as one JSON line. It is
// launched by a querydesk:// link, as the OS would launch it from one.

const [projectRoot, userData] = process.argv.slice(2);
if (projectRoot === undefined || userData === undefined) throw new Error('usage: boot-built-app.ts <project root> <user data dir>');

const standInUrl = pathToFileURL(join(import.meta.dirname, 'electron.ts')).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standInUrl, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

const electron = (await import(standInUrl)) as typeof import('./electron.ts');
const { app, standIn } = electron;
const { recorded } = standIn;
app.setPath('userData', userData);
app.setPath('downloads', join(userData, 'downloads'));
app.setPath('logs', join(userData, 'logs'));

await import(pathToFileURL(resolve(projectRoot, 'out/main/index.js')).href);
standIn.ready();
await until(() => recorded.windows.length > 0 && recorded.ipcHandlers.has(IPC_INVOKE), 'the window and the IPC handler');
const window = recorded.windows[0]!;
await until(() => window.visible, 'the window to be shown');

const serve = recorded.protocolHandlers.get('app');
async function answer(url: string) {
  if (serve === undefined) return null;
  const response = await serve(new Request(url));
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

const preload = loadPreload(String((window.options.webPreferences as Record<string, unknown>).preload), {
  handler: (channel) => recorded.ipcHandlers.get(channel) as ((event: unknown, ...args: unknown[]) => unknown) | undefined,
  senderFrame: window.webContents.mainFrame,
  toRenderer: window.webContents.toRenderer,
  // a moment later, as IPC delivers
  fromRenderer: (channel, ...args) => setImmediate(() => electron.ipcMain.emit(channel, { sender: window.webContents }, ...args)),
});
const bridge = preload.exposed.get('querydesk') as {
  invoke(channel: unknown, payload: unknown): Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }>;
  on(event: unknown, listener: unknown): () => void;
  onStopping(listener: () => void): () => void;
};

const settings = await bridge.invoke('settings:get', {});
const settingsChange = await bridge.invoke('settings:set', { theme: 'dark', proxy: 'http://127.0.0.1:3128' });
const themeAfterChange = electron.nativeTheme.themeSource;
const openLogs = await bridge.invoke('settings:openLogsFolder', {});
const accounts = await bridge.invoke('accounts:list', {});
const accountList = accounts.data as { accounts: Array<{ id: string; isLocal: boolean; baseUrl: string }> };
const local = accountList.accounts.find((account) => account.isLocal);
const refreshed = await bridge.invoke('workspace:refresh', { accountId: local?.id });
const queries = await bridge.invoke('workspace:open', { accountId: local?.id });
const invokesBeforeUnknown = preload.invokes();
const unknownChannel = await bridge.invoke('shell:exec', { command: 'rm -rf /' });
const invokesAfterUnknown = preload.invokes();
const invalidPayload = await bridge.invoke('executions:list', { accountId: local?.id, limit: -1 });
let unknownEventError: string | null = null;
try {
  bridge.on('bogus:event', () => undefined);
} catch (error) {
  unknownEventError = (error as Error).message;
}

const served = {
  root: await answer('app://querydesk/'),
  entry: window.loadedUrl === null ? null : await answer(window.loadedUrl),
  escape: await answer('app://querydesk/..%2fmain%2findex.js'),
  otherHost: await answer('app://elsewhere/index.html'),
};

// as the renderer's LaterWrites: a change still waiting, sent as the window closes
let writtenAsItClosed: Promise<unknown> | null = null;
bridge.onStopping(() => {
  writtenAsItClosed = bridge.invoke('ui:set', { accountId: local?.id, key: 'layout', value: { sidebarWidth: 321 } });
});
app.quit();
await until(() => recorded.quitEmitted, 'the app to quit');
const writeAsItClosed = await writtenAsItClosed;
let serviceAfterQuit: string;
try {
  await fetch(local?.baseUrl ?? 'http://127.0.0.1:9', { signal: AbortSignal.timeout(5000) });
  serviceAfterQuit = 'answered';
} catch (error) {
  serviceAfterQuit = String((error as { cause?: { code?: string } }).cause?.code ?? error);
}

console.log(
  JSON.stringify({
    schemesRegisteredBeforeReady: recorded.schemesRegisteredBeforeReady,
    privilegedSchemes: recorded.privilegedSchemes,
    permissionHandlersSet: recorded.permissionHandlersSet,
    menuInstalled: recorded.menuInstalled,
    windowCount: recorded.windows.length,
    windowOptions: window.options,
    windowOpenAction: window.webContents.windowOpenHandler?.({ url: 'file:///etc/passwd' }) ?? null,
    loadedUrl: window.loadedUrl,
    served,
    preload: {
      required: preload.required,
      exposedKeys: [...preload.exposed.keys()],
      bridgeKeys: Object.keys(bridge),
      bridgeFrozen: Object.isFrozen(bridge),
    },
    settings,
    settingsChange,
    themeAfterChange,
    proxyConfigs: recorded.proxyConfigs,
    protocolClients: recorded.protocolClients,
    openLogs,
    openedPaths: recorded.openedPaths,
    sent: recorded.sent,
    accounts,
    refreshed,
    queries,
    unknownChannel,
    unknownChannelReachedMain: invokesAfterUnknown !== invokesBeforeUnknown,
    invalidPayload,
    unknownEventError,
    localBaseUrl: local?.baseUrl ?? null,
    writeAsItClosed,
    ipcHandlersAfterQuit: [...recorded.ipcHandlers.keys()],
    quitEmitted: recorded.quitEmitted,
    exitCode: recorded.exitCode,
    errors: recorded.errors,
    serviceAfterQuit,
  }),
);

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (recorded.errors.length > 0) throw new Error(`the app reported: ${recorded.errors.join('; ')}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}
