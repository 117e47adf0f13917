import type { Api } from '../lib/bridge.ts';
import type { LaterWrites } from '../lib/later-writes.ts';
import { readTabsState, type TabsState } from './tabs.svelte.ts';

const TABS_SAVE_DELAY_MS = 300;

/** The open tabs, kept by main for each account under `tabs`, so that they open again next time. */
export class SavedTabs {
  readonly #api: Api;
  readonly #later: LaterWrites;

  constructor(api: Api, later: LaterWrites) {
    this.#api = api;
    this.#later = later;
  }

  /** Saves the tabs a moment later, as they are then: a burst of changes is written once. */
  saveLater(accountId: string, state: () => TabsState): void {
    this.#later.schedule('tabs', TABS_SAVE_DELAY_MS, () => {
      const { tabs, active } = state();
      const value = { tabs: tabs.map(({ queryId, pinned }) => ({ queryId, pinned })), active };
      void this.#api.invoke('ui:set', { accountId, key: 'tabs', value });
    });
  }

  /** The tabs saved for the account; null when main could not answer. */
  async read(accountId: string): Promise<TabsState | null> {
    const answer = await this.#api.invoke('ui:get', { accountId, key: 'tabs' });
    return answer.ok ? readTabsState(answer.data.value) : null;
  }
}
