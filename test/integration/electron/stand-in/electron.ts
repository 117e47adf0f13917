import { EventEmitter } from 'node:events';

// A small `electron` that behaves like the parts of it the app uses, for loading the built main
// process in plain Node (there is no Electron binary on these machines). It keeps what the app did
// with it in `standIn`, so the boot scenario can look, and lets the scenario say when the app is ready.

type Listener = (...args: unknown[]) => unknown;

export interface StandInEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

function standInEvent(fields: object = {}): StandInEvent {
  return {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => (markReady = resolve));

const recorded = {
  isReady: false,
  privilegedSchemes: [] as Array<{ scheme: string; privileges: Record<string, boolean> }>,
  /** Whether the schemes were registered before ready, as Chromium requires. */
  schemesRegisteredBeforeReady: null as boolean | null,
  protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
  ipcHandlers: new Map<string, Listener>(),
  windows: [] as BrowserWindow[],
  menuInstalled: false,
  permissionHandlersSet: 0,
  proxyConfigs: [] as unknown[],
  protocolClients: [] as string[],
  openedPaths: [] as string[],
  /** Every message main sent to a window: channel and arguments. */
  sent: [] as unknown[][],
  quitRequests: 0,
  quitEmitted: false,
  exitCode: null as number | null,
  errors: [] as string[],
};

class StandInApp extends EventEmitter {
  isPackaged = false;
  private quitting = false;
  private readonly paths: Record<string, string> = {};
  enableSandbox(): void {}
  requestSingleInstanceLock(): boolean {
    return true;
  }
  whenReady(): Promise<void> {
    return ready;
  }
  isReady(): boolean {
    return recorded.isReady;
  }
  setPath(name: string, path: string): void {
    this.paths[name] = path;
  }
  getPath(name: string): string {
    const path = this.paths[name];
    if (path === undefined) throw new Error(`Failed to get '${name}' path`);
    return path;
  }
  getVersion(): string {
    return '0.0.0-stand-in';
  }
  getName(): string {
    return 'Querydesk';
  }
  setAsDefaultProtocolClient(scheme: string): boolean {
    recorded.protocolClients.push(scheme);
    return true;
  }
  /**
   * As in Electron: before-quit, then each window is asked to close; one that prevents it cancels
   * the quit. Then will-quit, which a listener may cancel too; otherwise quit.
   */
  quit(): void {
    recorded.quitRequests += 1;
    if (this.quitting) return;
    this.quitting = true;
    setImmediate(() => {
      const before = standInEvent();
      this.emit('before-quit', before);
      if (before.defaultPrevented) return void (this.quitting = false);
      for (const window of BrowserWindow.getAllWindows()) window.close();
      if (BrowserWindow.getAllWindows().length > 0) return void (this.quitting = false);
      const willQuit = standInEvent();
      this.emit('will-quit', willQuit);
      this.quitting = false;
      if (willQuit.defaultPrevented) return;
      recorded.quitEmitted = true;
      this.emit('quit', standInEvent(), 0);
    });
  }
  exit(code = 0): void {
    recorded.exitCode = code;
  }
  isQuitting(): boolean {
    return this.quitting;
  }
}

export const app = new StandInApp();

class StandInFrame {
  url = '';
  parent = null;
  detached = false;
  processId = 7;
  routingId = 1;
  isDestroyed(): boolean {
    return false;
  }
}

class StandInWebContents extends EventEmitter {
  readonly mainFrame = new StandInFrame();
  private destroyed = false;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  /** What `send` delivered, to whoever plays the renderer side. */
  readonly toRenderer = new EventEmitter();
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  /** Delivered a moment later, as IPC is. */
  send(channel: string, ...args: unknown[]): void {
    recorded.sent.push([channel, ...structuredClone(args)]);
    const delivered = structuredClone(args);
    setImmediate(() => this.toRenderer.emit(channel, ...delivered));
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export class BrowserWindow extends EventEmitter {
  static getAllWindows(): BrowserWindow[] {
    return recorded.windows.filter((window) => !window.isDestroyed());
  }
  readonly webContents = new StandInWebContents();
  readonly options: Record<string, unknown>;
  loadedUrl: string | null = null;
  visible = false;
  maximized = false;
  private destroyed = false;
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    recorded.windows.push(this);
    app.emit('web-contents-created', standInEvent(), this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    setImmediate(() => this.emit('ready-to-show'));
  }
  show(): void {
    this.visible = true;
  }
  maximize(): void {
    this.maximized = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    const { x = 100, y = 80, width, height } = this.options as { x?: number; y?: number; width: number; height: number };
    return { x, y, width, height };
  }
  focus(): void {}
  restore(): void {}
  isVisible(): boolean {
    return this.visible;
  }
  isMinimized(): boolean {
    return false;
  }
  isFocused(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** As in Electron: `close`, which a listener may prevent; then closed, and, were it the last one outside a quit, window-all-closed. */
  close(): void {
    if (this.destroyed) return;
    const event = standInEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroy();
    if (BrowserWindow.getAllWindows().length === 0 && !app.isQuitting()) app.emit('window-all-closed');
  }
  /** As in Electron: closed at once, without `close`. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
  }
}

const DISPLAY = {
  id: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1050 },
  scaleFactor: 1,
};

export const screen = {
  getAllDisplays: () => [DISPLAY],
  getPrimaryDisplay: () => DISPLAY,
  getDisplayMatching: () => DISPLAY,
};

export const protocol = {
  registerSchemesAsPrivileged(schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>): void {
    recorded.privilegedSchemes.push(...schemes);
    recorded.schemesRegisteredBeforeReady = !recorded.isReady;
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    if (!recorded.isReady) throw new Error('protocol.handle before the app is ready');
    recorded.protocolHandlers.set(scheme, handler);
  },
};

export const ipcMain = Object.assign(new EventEmitter(), {
  handle(channel: string, listener: Listener): void {
    if (recorded.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    recorded.ipcHandlers.set(channel, listener);
  },
  removeHandler(channel: string): void {
    recorded.ipcHandlers.delete(channel);
  },
});

export const session = {
  defaultSession: {
    setPermissionRequestHandler(): void {
      recorded.permissionHandlersSet += 1;
    },
    setPermissionCheckHandler(): void {
      recorded.permissionHandlersSet += 1;
    },
    async setProxy(config: unknown): Promise<void> {
      if (!recorded.isReady) throw new Error('setProxy before the app is ready');
      recorded.proxyConfigs.push(config);
    },
    async closeAllConnections(): Promise<void> {},
  },
};

export const dialog = {
  showErrorBox(title: string, content: string): void {
    recorded.errors.push(`${title}: ${content}`);
  },
  async showSaveDialog(): Promise<{ canceled: boolean; filePath?: string }> {
    return { canceled: true };
  },
};

export const Menu = {
  buildFromTemplate(template: unknown[]): { items: unknown[] } {
    return { items: template };
  },
  setApplicationMenu(): void {
    recorded.menuInstalled = true;
  },
};

export class Notification extends EventEmitter {
  static isSupported(): boolean {
    return false;
  }
  show(): void {}
}

export const shell = {
  async openExternal(): Promise<void> {},
  async openPath(path: string): Promise<string> {
    recorded.openedPaths.push(path);
    return '';
  },
};

export const nativeTheme = Object.assign(new EventEmitter(), { shouldUseDarkColors: false, themeSource: 'system' });

export const powerMonitor = new EventEmitter();

/** Chromium's stack is not here; Node's fetch stands in for it. */
export const net = { fetch: (input: string, init?: RequestInit) => fetch(input, init) };

/** The scenario's side: what the app did, and the moment Electron would say it is ready. */
export const standIn = {
  recorded,
  ready(): void {
    recorded.isReady = true;
    markReady();
    app.emit('ready');
  },
};

export default {
  app,
  BrowserWindow,
  protocol,
  ipcMain,
  session,
  dialog,
  Menu,
  Notification,
  shell,
  nativeTheme,
  powerMonitor,
  net,
  screen,
};
