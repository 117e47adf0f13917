import { BrowserWindow, nativeTheme } from 'electron';
import { APP_ENTRY_URL } from './origin.ts';

const LIGHT_BACKGROUND = '#ffffff';
const DARK_BACKGROUND = '#1e1e1e';

/** The one app window. It appears only once painted, so there is no white flash in dark mode. */
export function createMainWindow(options: { preloadPath: string; title: string }): BrowserWindow {
  const window = new BrowserWindow({
    title: options.title,
    width: 1280,
    height: 820,
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
  window.once('ready-to-show', () => window.show());
  void window.loadURL(APP_ENTRY_URL);
  return window;
}
