import { BrowserWindow, nativeTheme } from 'electron';
import { APP_ENTRY_URL } from './origin.ts';
import type { Placement } from './window-placement.ts';

const LIGHT_BACKGROUND = '#ffffff';
const DARK_BACKGROUND = '#1e1e1e';

/**
 * The one app window, where it was last on this display (`placement`) or at the default size. It
 * appears only once painted, so there is no white flash in dark mode.
 */
export function createMainWindow(options: { preloadPath: string; title: string; placement?: Placement | null }): BrowserWindow {
  const window = new BrowserWindow({
    title: options.title,
    width: 1280,
    height: 820,
    ...options.placement?.bounds,
    minWidth: 800,
    minHeight: 500,
    show: false,
    backgroundColor: nativeTheme.shouldUseDarkColors ? DARK_BACKGROUND : LIGHT_BACKGROUND,
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => {
    if (options.placement?.maximized) window.maximize();
    window.show();
  });
  void window.loadURL(APP_ENTRY_URL);
  return window;
}
