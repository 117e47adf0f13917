import { join } from 'node:path';
import { z } from 'zod';
import { jsonFileStore, type SettingsStore } from '../settings/settings-store.ts';

// Results the analyst pinned: the cache keeps their rows past its budget until the service expires
// them (issue 36). Kept in a file beside the cache's, written when a pin changes, so pins outlive a
// restart; an unreadable file is set aside and the cache goes on without pins.

const Pin = z.object({
  accountId: z.string(),
  executionId: z.string(),
  /** The service's expiry of the result; null when it gave none (then kept until unpinned). */
  expiresAt: z.string().nullable(),
  pinnedAt: z.string(),
});
export type Pin = z.infer<typeof Pin>;
const PinsFile = z.object({ pins: z.array(Pin) });

export function pinKey(accountId: string, executionId: string): string {
  return `${accountId}\u0000${executionId}`;
}

export function isPinLive(pin: Pin, now: Date): boolean {
  return pin.expiresAt === null || Date.parse(pin.expiresAt) > now.getTime();
}

export class Pins {
  readonly #store: SettingsStore<z.infer<typeof PinsFile>>;
  readonly #pins = new Map<string, Pin>();

  constructor(cacheDir: string) {
    this.#store = jsonFileStore(join(cacheDir, 'pins.json'), PinsFile, () => ({ pins: [] }));
    for (const pin of this.#store.read().pins) this.#pins.set(pinKey(pin.accountId, pin.executionId), pin);
  }

  get(accountId: string, executionId: string): Pin | null {
    return this.#pins.get(pinKey(accountId, executionId)) ?? null;
  }

  set(pin: Pin): void {
    this.#pins.set(pinKey(pin.accountId, pin.executionId), pin);
    this.#write();
  }

  /** Drops the pins `isDropped` picks; answers whether any went. */
  drop(isDropped: (pin: Pin) => boolean): boolean {
    const gone = [...this.#pins].filter(([, pin]) => isDropped(pin));
    for (const [key] of gone) this.#pins.delete(key);
    if (gone.length > 0) this.#write();
    return gone.length > 0;
  }

  /** The keys of the pins still before their expiry; expired ones are dropped. */
  live(now: Date): Set<string> {
    this.drop((pin) => !isPinLive(pin, now));
    return new Set(this.#pins.keys());
  }

  #write(): void {
    this.#store.write({ pins: [...this.#pins.values()] });
  }
}

/** The cache's pins as its callers reach them. */
export interface PinnedResults {
  pin(pin: Pin): Promise<void>;
  /** The entry goes back to the budget: evicted at once when it is past it. */
  unpin(accountId: string, executionId: string): Promise<void>;
  get(accountId: string, executionId: string): Promise<Pin | null>;
}

export function pinnedResults(pins: Pins, evict: () => Promise<void>): PinnedResults {
  return {
    pin: async (pin) => pins.set(pin),
    unpin: async (accountId, executionId) => {
      if (pins.drop((pin) => pin.accountId === accountId && pin.executionId === executionId)) await evict();
    },
    get: async (accountId, executionId) => pins.get(accountId, executionId),
  };
}
