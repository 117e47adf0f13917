import { nativeTheme, session } from 'electron';
import type { AppSettings } from '../contract/index.ts';
import type { AppSettingsState } from '../core/settings/app-settings.ts';
import { applyProxySetting } from './network.ts';

// The settings Electron applies itself: the theme (Chromium then answers prefers-color-scheme as
// chosen, so the renderer's CSS follows) and the proxy of the session net.fetch uses.

export async function applyDesktopSettings(settings: AppSettingsState): Promise<void> {
  await apply(settings.current(), null);
  settings.onChange(apply);
}

async function apply(settings: AppSettings, previous: AppSettings | null): Promise<void> {
  nativeTheme.themeSource = settings.theme;
  if (previous === null || previous.proxy !== settings.proxy) await applyProxySetting(session.defaultSession, settings.proxy);
}
