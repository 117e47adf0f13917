import { z } from 'zod';
import { DEFAULT_CONFIRM_DATAPOINTS, NO_RATES, UsageRates, UsageSettings } from '../../contract/index.ts';
import type { SettingsStore } from '../settings/settings-store.ts';

// The app's confirm size and each account's rates, kept in their own file beside the accounts'
// profiles (never with keys), written at each change.

export const StoredUsageSettings = z.object({
  confirmDatapoints: UsageSettings.shape.confirmDatapoints,
  rates: z.record(z.string(), UsageRates),
});
export type StoredUsageSettings = z.infer<typeof StoredUsageSettings>;

export const defaultUsageSettings = (): StoredUsageSettings => ({ confirmDatapoints: DEFAULT_CONFIRM_DATAPOINTS, rates: {} });

export class UsageSettingsState {
  readonly #store: SettingsStore<StoredUsageSettings>;
  #current: StoredUsageSettings;

  constructor(store: SettingsStore<StoredUsageSettings>) {
    this.#store = store;
    this.#current = store.read();
  }

  of(accountId: string): UsageSettings {
    return { confirmDatapoints: this.#current.confirmDatapoints, rates: this.#current.rates[accountId] ?? NO_RATES };
  }

  change(accountId: string, changes: Partial<UsageSettings>): UsageSettings {
    const next: StoredUsageSettings = {
      confirmDatapoints: changes.confirmDatapoints ?? this.#current.confirmDatapoints,
      rates: changes.rates === undefined ? this.#current.rates : { ...this.#current.rates, [accountId]: changes.rates },
    };
    this.#store.write(next);
    this.#current = next;
    return this.of(accountId);
  }

  forget(accountId: string): void {
    if (!(accountId in this.#current.rates)) return;
    const rates = Object.fromEntries(Object.entries(this.#current.rates).filter(([id]) => id !== accountId));
    this.#store.write({ ...this.#current, rates });
    this.#current = { ...this.#current, rates };
  }
}
