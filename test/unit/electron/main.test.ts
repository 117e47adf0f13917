import { beforeEach, describe, expect, it, vi } from 'vitest';

type Handler = (...args: unknown[]) => void;

const fake = vi.hoisted(() => {
  const state = {
    log: [] as string[],
    handlers: new Map<string, Handler[]>(),
    gotLock: true,
    ready: Promise.resolve(),
    windows: [] as Array<{ closed: Handler | undefined; shown: Handler | undefined }>,
    startError: null as Error | null,
    /** What the window's held close calls once its page has answered. */
    releaseClose: null as (() => void) | null,
  };
  const app = {
    enableSandbox: () => state.log.push('enableSandbox'),
    requestSingleInstanceLock: () => state.gotLock,
    quit: () => state.log.push('quit'),
    exit: (code: number) => state.log.push(`exit ${code}`),
    on: (name: string, handler: Handler) => {
      state.handlers.set(name, [...(state.handlers.get(name) ?? []), handler]);
    },
    whenReady: () => state.ready,
    getPath: (name: string) => `/home/u/.config/Querydesk#${name}`,
    getVersion: () => '0.1.0',
    setAsDefaultProtocolClient: (scheme: string) => state.log.push(`protocol client ${scheme}`),
    getName: () => 'Querydesk',
    isPackaged: false,
  };
  const emit = (name: string, ...args: unknown[]) => {
    for (const handler of state.handlers.get(name) ?? []) handler(...args);
  };
  return { state, app, emit };
});

vi.mock('electron', () => ({
  app: fake.app,
  BrowserWindow: { getAllWindows: () => fake.state.windows },
  dialog: { showErrorBox: (title: string) => fake.state.log.push(`error box: ${title}`) },
  session: { defaultSession: {} },
  screen: { getAllDisplays: () => [] },
}));
vi.mock('../../../main/electron/protocol.ts', () => ({
  registerAppScheme: () => fake.state.log.push('registerAppScheme'),
  handleAppProtocol: (dir: string) => fake.state.log.push(`handleAppProtocol ${dir.endsWith('/renderer')}`),
}));
vi.mock('../../../main/electron/navigation.ts', () => ({
  guardWebContents: () => fake.state.log.push('guardWebContents'),
  denyPermissions: () => fake.state.log.push('denyPermissions'),
}));
vi.mock('../../../main/electron/menu.ts', () => ({ installApplicationMenu: () => fake.state.log.push('menu') }));
vi.mock('../../../main/electron/ipc.ts', () => ({
  createEventSender: () => (event: string, payload: unknown) => fake.state.log.push(`event ${event} ${JSON.stringify(payload)}`),
  registerInvokeHandler: () => {
    fake.state.log.push('registerInvokeHandler');
    return {
      unregister: () => fake.state.log.push('unregisterInvokeHandler'),
      settled: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        fake.state.log.push('invokes settled');
      },
    };
  },
}));
vi.mock('../../../main/electron/close-handshake.ts', () => ({
  holdCloseForPage: (_window: unknown, released: () => void) => (fake.state.releaseClose = released),
}));
vi.mock('../../../main/electron/window.ts', () => ({
  createMainWindow: (options: { preloadPath: string }) => {
    fake.state.log.push(`createMainWindow ${options.preloadPath.endsWith('/preload/index.cjs')}`);
    const window = {
      closed: undefined as Handler | undefined,
      shown: undefined as Handler | undefined,
      on: (_: string, h: Handler) => (window.closed = h),
      once: (_: string, h: Handler) => (window.shown = h),
      isMinimized: () => false,
      focus: () => {},
    };
    fake.state.windows.push(window);
    return window;
  },
}));
vi.mock('../../../main/core/logging/logger.ts', () => ({
  createLogger: () => ({
    info: () => {},
    warn: () => {},
    error: (message: string) => fake.state.log.push(`log error ${message}`),
    addSecret: () => {},
    recent: () => [],
    redact: (text: string) => text,
  }),
}));
vi.mock('../../../main/electron/updates.ts', () => ({ startUpdates: () => fake.state.log.push('startUpdates') }));
vi.mock('../../../main/service/thread/shrink-heap.ts', () => ({ shrinkHeapAtRest: () => fake.state.log.push('shrinkHeapAtRest') }));
vi.mock('../../../main/electron/settings-store.ts', () => ({
  openSettingsFile: (dir: string) => {
    fake.state.log.push(`openSettingsFile ${dir}`);
    return { path: `${dir}/settings.json` };
  },
  electronSettingsStore: (_file: unknown, key: string) => ({
    read: () => (key === 'window' ? { byDisplay: {}, last: null } : {}),
    write: () => fake.state.log.push(`write ${key}`),
  }),
}));
vi.mock('../../../main/electron/desktop-settings.ts', () => ({
  applyDesktopSettings: async (settings: { current(): { theme: string; proxy: string } }) => {
    const { theme, proxy } = settings.current();
    fake.state.log.push(`applyDesktopSettings theme=${theme} proxy=${JSON.stringify(proxy)}`);
  },
}));
vi.mock('../../../main/electron/backend.ts', () => ({
  startBackend: async (options: { dataDir: string; version: string; onExecutionFinished: unknown }) => {
    fake.state.log.push(`startBackend ${options.dataDir} ${options.version} notifier=${typeof options.onExecutionFinished}`);
    if (fake.state.startError) throw fake.state.startError;
    return {
      handlers: {
        'accounts:list': async () => ({
          ok: true,
          data: {
            accounts: [
              { id: 'local', label: 'Local', isLocal: true },
              { id: 'a7', label: 'Team', isLocal: false },
            ],
          },
        }),
      },
      dispose: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        fake.state.log.push('dispose');
      },
    };
  },
}));

async function launch() {
  vi.resetModules();
  await import('../../../main/electron/main.ts');
  await new Promise((resolve) => setTimeout(resolve, 0));
}

beforeEach(() => {
  fake.state.log.length = 0;
  fake.state.handlers.clear();
  fake.state.windows.length = 0;
  fake.state.gotLock = true;
  fake.state.startError = null;
});

describe('the Electron host lifecycle', () => {
  it('sandboxes, registers the scheme, then on ready starts the backend in userData and opens the window', async () => {
    await launch();
    expect(fake.state.log).toEqual([
      'enableSandbox',
      'registerAppScheme',
      'protocol client querydesk',
      'denyPermissions',
      'handleAppProtocol true',
      'menu',
      'openSettingsFile /home/u/.config/Querydesk#userData',
      'applyDesktopSettings theme=system proxy=""',
      'startBackend /home/u/.config/Querydesk#userData 0.1.0 notifier=function',
      'registerInvokeHandler',
      'createMainWindow true',
      'startUpdates',
      'shrinkHeapAtRest',
    ]);
    fake.emit('web-contents-created', {}, {});
    expect(fake.state.log.at(-1)).toBe('guardWebContents');
  });

  it('quits at once when another instance holds the lock', async () => {
    fake.state.gotLock = false;
    await launch();
    expect(fake.state.log).toEqual(['enableSandbox', 'registerAppScheme', 'quit']);
  });

  it('holds the quit until the backend is disposed, then quits once', async () => {
    await launch();
    fake.state.log.length = 0;
    const first = { prevented: false, preventDefault: () => (first.prevented = true) };
    fake.emit('will-quit', first);
    fake.emit('will-quit', { preventDefault: () => {} });
    expect(first.prevented).toBe(true);
    await vi.waitFor(() => expect(fake.state.log).toContain('quit'));
    expect(fake.state.log).toEqual(['unregisterInvokeHandler', 'invokes settled', 'dispose', 'quit']);
    const last = { prevented: false, preventDefault: () => (last.prevented = true) };
    fake.emit('will-quit', last);
    expect(last.prevented).toBe(false);
  });

  it('goes on with a quit once the window’s held close is released, and does not quit for a close alone', async () => {
    await launch();
    fake.state.log.length = 0;
    fake.state.releaseClose!();
    expect(fake.state.log).toEqual([]);
    fake.emit('before-quit');
    fake.state.releaseClose!();
    expect(fake.state.log).toEqual(['quit']);
  });

  it('brings the window back on a second launch instead of opening another app', async () => {
    await launch();
    fake.state.windows[0]!.closed!();
    fake.state.log.length = 0;
    fake.emit('second-instance', {}, ['/opt/Querydesk/querydesk']);
    expect(fake.state.log).toEqual(['createMainWindow true']);
  });

  it('opens the query a querydesk:// link names, from a launch or from a second launch, once the window shows', async () => {
    const argv = process.argv;
    process.argv = [...argv, 'querydesk://query/42?account=team'];
    try {
      await launch();
    } finally {
      process.argv = argv;
    }
    expect(fake.state.log).toContain('protocol client querydesk');
    expect(fake.state.log.filter((line) => line.startsWith('event'))).toEqual([]);
    fake.state.windows[0]!.shown!();
    await vi.waitFor(() => expect(fake.state.log).toContain('event query:open {"accountId":"a7","queryId":42}'));
    fake.emit('second-instance', {}, ['/opt/Querydesk/querydesk', 'querydesk://query/7']);
    await vi.waitFor(() => expect(fake.state.log).toContain('event query:open {"accountId":"local","queryId":7}'));
  });

  it('says why and exits when the backend cannot start', async () => {
    fake.state.startError = new Error('data directory is locked');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await launch();
    expect(fake.state.log.slice(-2)).toEqual(['error box: Querydesk could not start', 'exit 1']);
  });
});
