import { z } from 'zod';
import { DEFAULT_EXPLORERS } from '../../common/explorers/index.ts';
import { AppSettings, MIN_POLL_MS, PollBounds } from '../../contract/index.ts';
import { DEFAULT_POLL_BOUNDS } from '../executions/poll-pace.ts';
import type { SettingsStore } from './settings-store.ts';

// The app's settings in memory, written through to the host's store on every change. The hosts
// apply some of them themselves (the proxy, the theme), so a change is announced to listeners,
// and answered only once they have applied it.

export const defaultAppSettings = (): AppSettings => ({
  theme: 'system',
  proxy: '',
  notifyOnFinish: true,
  poll: { ...DEFAULT_POLL_BOUNDS },
  thousandsSeparators: false,
  exportFolder: null,
  explorers: structuredClone(DEFAULT_EXPLORERS),
});

/** The lower bound of checks before it was raised to a second (MIN_POLL_MS). */
const OLD_MIN_POLL_MS = 250;

/**
 * Bounds kept while checks could come every 250 ms are read with the lower one raised to a second
 * (the upper one was never below), rather than refused: a file that does not read is set aside
 * whole, every setting in it back at its default.
 */
const StoredPollBounds = z.preprocess((value) => {
  if (typeof value !== 'object' || value === null || !('minMs' in value)) return value;
  const { minMs } = value;
  return typeof minMs === 'number' && minMs >= OLD_MIN_POLL_MS && minMs < MIN_POLL_MS ? { ...value, minMs: MIN_POLL_MS } : value;
}, PollBounds);

/**
 * What is stored: any subset of the settings, so a file written before a setting existed still
 * reads, with that setting at its default.
 */
export const StoredAppSettings = z
  .object({ ...AppSettings.shape, poll: StoredPollBounds })
  .partial()
  .strict();
export type StoredAppSettings = z.infer<typeof StoredAppSettings>;

export type SettingsListener = (settings: AppSettings, previous: AppSettings) => void | Promise<void>;

export interface AppSettingsState {
  current(): AppSettings;
  /** Checked, stored, then applied by every listener. */
  update(changes: Partial<AppSettings>): Promise<AppSettings>;
  onChange(listener: SettingsListener): () => void;
}

export function openAppSettings(store: SettingsStore<StoredAppSettings>): AppSettingsState {
  let settings = withDefaults(store.read());
  const listeners = new Set<SettingsListener>();
  return {
    current: () => settings,
    async update(changes) {
      const next = AppSettings.parse({ ...settings, ...changes });
      store.write(next);
      const previous = settings;
      settings = next;
      for (const listener of listeners) await listener(next, previous);
      return next;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function withDefaults(stored: StoredAppSettings): AppSettings {
  const merged = AppSettings.safeParse({ ...defaultAppSettings(), ...stored });
  return merged.success ? merged.data : defaultAppSettings();
}
