import { beforeEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => {
  const state = { dark: false, windows: [] as FakeWindow[] };
  class FakeWindow {
    options: Record<string, unknown>;
    loaded: string[] = [];
    shown = false;
    maximizedBeforeShow: boolean | null = null;
    private maximized = false;
    private readyHandlers: Array<() => void> = [];
    constructor(options: Record<string, unknown>) {
      this.options = options;
      state.windows.push(this);
    }
    once(event: string, handler: () => void) {
      if (event === 'ready-to-show') this.readyHandlers.push(handler);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    show() {
      this.shown = true;
      this.maximizedBeforeShow = this.maximized;
    }
    maximize() {
      this.maximized = true;
    }
    emitReady() {
      for (const handler of this.readyHandlers) handler();
    }
  }
  return { state, FakeWindow };
});

vi.mock('electron', () => ({
  BrowserWindow: fake.FakeWindow,
  nativeTheme: {
    get shouldUseDarkColors() {
      return fake.state.dark;
    },
  },
}));

const { createMainWindow } = await import('../../../main/electron/window.ts');

describe('createMainWindow', () => {
  beforeEach(() => {
    fake.state.windows.length = 0;
    fake.state.dark = false;
  });

  it('isolates and sandboxes the renderer, with the preload and no Node', () => {
    createMainWindow({ preloadPath: '/app/out/preload/index.cjs', title: 'Querydesk' });
    const prefs = fake.state.windows[0]!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('loads the app origin and shows only once ready', () => {
    const window = createMainWindow({ preloadPath: '/p.cjs', title: 'Querydesk' }) as unknown as InstanceType<typeof fake.FakeWindow>;
    expect(window.loaded).toEqual(['app://querydesk/index.html']);
    expect(window.options.show).toBe(false);
    expect(window.shown).toBe(false);
    window.emitReady();
    expect(window.shown).toBe(true);
  });

  it('has a minimum size and a background following the OS theme', () => {
    fake.state.dark = true;
    createMainWindow({ preloadPath: '/p.cjs', title: 'Querydesk' });
    fake.state.dark = false;
    createMainWindow({ preloadPath: '/p.cjs', title: 'Querydesk' });
    const [dark, light] = fake.state.windows.map((w) => w.options);
    expect(dark!.minWidth).toBeGreaterThan(0);
    expect(dark!.minHeight).toBeGreaterThan(0);
    expect(dark!.backgroundColor).not.toBe(light!.backgroundColor);
    expect(light!.backgroundColor).toBe('#ffffff');
  });

  it('opens where it was last, maximized again before it shows when it was', () => {
    const placed = createMainWindow({
      preloadPath: '/p.cjs',
      title: 'Querydesk',
      placement: { bounds: { x: 1600, y: 100, width: 1800, height: 1200 }, maximized: true },
    }) as unknown as InstanceType<typeof fake.FakeWindow>;
    expect(placed.options).toMatchObject({ x: 1600, y: 100, width: 1800, height: 1200 });
    placed.emitReady();
    expect(placed.maximizedBeforeShow).toBe(true);

    const fresh = createMainWindow({ preloadPath: '/p.cjs', title: 'Querydesk', placement: null }) as unknown as InstanceType<
      typeof fake.FakeWindow
    >;
    expect(fresh.options).toMatchObject({ width: 1280, height: 820 });
    expect(fresh.options.x).toBeUndefined();
    fresh.emitReady();
    expect(fresh.maximizedBeforeShow).toBe(false);
  });
});
