import type { AboutInfo, AppSettings, ChannelRequest, ContractError } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import type { ErrorContext } from '../lib/error-words.ts';
import { explorerSettings } from '../results/grid/explorers.svelte.ts';
import { numberStyle } from '../results/grid/number-style.svelte.ts';
import { applyTheme } from './theme.ts';

export type SettingsChanges = ChannelRequest<'settings:set'>;

interface CacheUsage {
  budgetBytes: number;
  usedBytes: number;
  entryCount: number;
}

/** The app's settings as main keeps them, the cache's budget and use, and where things are. */
export class Settings {
  readonly #api: Api;
  current = $state.raw<AppSettings | null>(null);
  about = $state.raw<AboutInfo | null>(null);
  cache = $state.raw<CacheUsage | null>(null);
  error = $state.raw<ContractError | null>(null);
  /** What was being done when `error` came: the heading it is shown under. */
  errorContext = $state.raw<ErrorContext>('settingsLoad');

  constructor(api: Api) {
    this.#api = api;
  }

  async load(): Promise<void> {
    const [answer, cache] = await Promise.all([this.#api.invoke('settings:get', {}), this.#api.invoke('results:cacheSettings', {})]);
    if (!answer.ok) return void this.#failed(answer.error, 'settingsLoad');
    this.current = answer.data.settings;
    this.about = answer.data.about;
    this.#apply(answer.data.settings);
    // without the cache's budget its field would show a default that an Apply would keep
    if (cache.ok) this.cache = cache.data;
    else this.#failed(cache.error, 'cacheLoad');
  }

  /** Null when saved; else the error, also kept in `error` for the page to show. */
  async save(changes: SettingsChanges): Promise<ContractError | null> {
    const answer = await this.#api.invoke('settings:set', changes);
    if (!answer.ok) return this.#failed(answer.error, 'settingSave');
    this.error = null;
    this.current = answer.data.settings;
    this.#apply(answer.data.settings);
    return null;
  }

  /** What the renderer applies itself: the theme, how the grids write numbers, where their links go. */
  #apply(settings: AppSettings): void {
    applyTheme(settings.theme);
    numberStyle.grouping = settings.thousandsSeparators;
    explorerSettings.explorers = settings.explorers;
  }

  async setCacheBudget(budgetBytes: number): Promise<ContractError | null> {
    const answer = await this.#api.invoke('results:cacheSettings', { budgetBytes });
    if (!answer.ok) return this.#failed(answer.error, 'settingSave');
    this.error = null;
    this.cache = answer.data;
    return null;
  }

  /** The diagnostics text for a bug report; null when main could not make it (the error is kept). */
  async diagnostics(): Promise<string | null> {
    const answer = await this.#api.invoke('settings:diagnostics', {});
    if (!answer.ok) return (this.#failed(answer.error, 'diagnostics'), null);
    return answer.data.text;
  }

  async openLogsFolder(): Promise<void> {
    const answer = await this.#api.invoke('settings:openLogsFolder', {});
    if (answer.ok) this.error = null;
    else this.#failed(answer.error, 'logsFolder');
  }

  async clearCache(): Promise<void> {
    const answer = await this.#api.invoke('settings:clearCache', {});
    if (!answer.ok) return void this.#failed(answer.error, 'cacheClear');
    this.cache = answer.data;
  }

  #failed(error: ContractError, context: ErrorContext): ContractError {
    this.errorContext = context;
    return (this.error = error);
  }
}
