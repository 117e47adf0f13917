import { z } from 'zod';
import { externalUrl } from '../common/external-url.ts';
import { CacheUsage } from './result-models.ts';

// The app's own settings (not the accounts', not the cache budget's, which have their channels):
// what the Settings page shows and changes. Main keeps them; every change is checked here first.

export const THEMES = ['system', 'light', 'dark'] as const;

/** Empty: the system's proxy settings (the environment's in the browser host). */
export const proxySetting = z
  .string()
  .trim()
  .max(500)
  .refine((value) => value === '' || isProxyAddress(value), {
    message: 'proxy must be empty (to use the system settings) or an address such as http://proxy.example.com:3128',
  });

function isProxyAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.hostname !== '' &&
      (url.pathname === '/' || url.pathname === '') &&
      url.search === '' &&
      url.hash === ''
    );
  } catch {
    return false;
  }
}

/**
 * Status checks are among the reads Dune's rate limit counts (40 a minute on its Free plan): none
 * comes sooner than a second after the last, as its SDKs poll.
 */
export const MIN_POLL_MS = 1000;

/**
 * How often a running execution's status is asked for: never faster than `minMs`, never slower than
 * `maxMs`, unless the runs of one account together would ask more often than its share of the rate
 * limit allows (then they take turns); the Local account's, whose service has no rate limit, from 250 ms.
 */
export const PollBounds = z
  .object({
    minMs: z.number().int().min(MIN_POLL_MS).max(60_000),
    maxMs: z.number().int().min(1_000).max(600_000),
  })
  .strict()
  .refine((bounds) => bounds.minMs <= bounds.maxMs, {
    // in the words of the Settings dialog's two fields
    message: 'The “at most every” time of checks must not be longer than the “at least every” time.',
    path: ['minMs'],
  });
export type PollBounds = z.infer<typeof PollBounds>;

/** A link to a block explorer's page, `{value}` standing for the address, hash or block; empty: that explorer has no such page. */
const explorerTemplate = z
  .string()
  .trim()
  .max(500)
  .refine((template) => template === '' || (template.includes('{value}') && externalUrl(template.replaceAll('{value}', '0')) !== null), {
    message: 'an explorer link must be an https address with {value} where the value goes, such as https://etherscan.io/address/{value}',
  });

export const ExplorerTemplates = z.object({ address: explorerTemplate, transaction: explorerTemplate, block: explorerTemplate }).strict();

/** Chains by the name Dune's `blockchain` columns give them. */
export const chainName = z
  .string()
  .regex(/^[a-z0-9_]{1,40}$/, 'a chain is named in lower-case letters, digits and underscores, as Dune names it');

export const Explorers = z.record(chainName, ExplorerTemplates).refine((explorers) => Object.keys(explorers).length <= 200, {
  message: 'up to 200 chains have an explorer',
});
export type Explorers = z.infer<typeof Explorers>;

export const AppSettings = z
  .object({
    theme: z.enum(THEMES),
    proxy: proxySetting,
    /** A desktop notification when a run this app started ends while the window is not looked at. */
    notifyOnFinish: z.boolean(),
    poll: PollBounds,
    /** Numbers in results with the thousands separators and decimal sign of the OS's locale. */
    thousandsSeparators: z.boolean(),
    /** Where the save dialog opens for an export; null: the Downloads folder. An absolute path. */
    exportFolder: z
      .string()
      .max(4096)
      .refine((path) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\'), {
        message: 'exportFolder must be an absolute path',
      })
      .nullable(),
    /** The block explorer of each chain, for the grid's "Open in explorer". */
    explorers: Explorers,
  })
  .strict();
export type AppSettings = z.infer<typeof AppSettings>;

/** For the About section and bug reports: where the app keeps what. */
export const AboutInfo = z.object({
  version: z.string(),
  host: z.enum(['electron', 'web']),
  dataDir: z.string(),
  cacheDir: z.string(),
  logsDir: z.string(),
  settingsFile: z.string(),
});
export type AboutInfo = z.infer<typeof AboutInfo>;

const SettingsView = z.object({ settings: AppSettings, about: AboutInfo });

export const settingsChannels = {
  'settings:get': {
    request: z.object({}).strict(),
    response: SettingsView,
  },
  /** Only the fields given change; kept on disk and applied (proxy, theme, polling) before it answers. */
  'settings:set': {
    request: z
      .object({
        theme: AppSettings.shape.theme.optional(),
        proxy: proxySetting.optional(),
        notifyOnFinish: z.boolean().optional(),
        poll: PollBounds.optional(),
        thousandsSeparators: z.boolean().optional(),
        exportFolder: AppSettings.shape.exportFolder.optional(),
        explorers: Explorers.optional(),
      })
      .strict(),
    response: SettingsView,
  },
  /** For a bug report: versions, system, settings and recent errors, with keys and passwords masked. */
  'settings:diagnostics': {
    request: z.object({}).strict(),
    response: z.object({ text: z.string() }),
  },
  /** Opens the logs folder in the system's file manager (the desktop app only). */
  'settings:openLogsFolder': {
    request: z.object({}).strict(),
    response: z.object({}),
  },
  /** The Settings page's Clear: every cached result is dropped and downloads under way stop. */
  'settings:clearCache': {
    request: z.object({}).strict(),
    response: CacheUsage,
  },
} as const;
