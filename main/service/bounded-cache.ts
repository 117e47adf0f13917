import { LRUCache } from 'lru-cache';

/** How much a cache keeps; entries past either limit go, least recently used first. */
export interface CacheLimits<K, V> {
  /** The most entries kept. */
  entries?: number;
  /**
   * The most of `sizeOf` over the entries kept (bytes, cells...): 0 keeps nothing. An entry larger
   * than all of it is kept alone, as the one used last.
   */
  size?: number;
  sizeOf?: (value: V, key: K) => number;
  /**
   * Called once for each entry that leaves: evicted, deleted, replaced or cleared. Work it answers
   * with (dropping a table, say) goes on after; `removalsDone` waits for it.
   */
  removed?: (value: V, key: K) => void | Promise<unknown>;
}

interface Entry<V> {
  value: V;
  size: number;
}

/**
 * The service's one least-recently-used cache, on `lru-cache`: every bounded cache of the service
 * goes through here, so that eviction, sizes and the release of what entries hold are written
 * once. Sizes may change as an entry is made (a view's cells are known once it is filled).
 */
export class BoundedCache<K extends {}, V> {
  readonly #lru: LRUCache<K, Entry<V>>;
  readonly #limits: CacheLimits<K, V>;
  #size = 0;
  /** While an entry's record is replaced to change its size, or taken out: its value stays the caller's. */
  #keeping = false;
  /** Work of `removed` under way, each answering its error, if any. */
  readonly #removing = new Set<Promise<unknown>>();

  constructor(limits: CacheLimits<K, V>) {
    if (limits.entries === undefined && limits.size === undefined) throw new Error('a bounded cache needs a limit of entries or of size');
    const maxSize = limits.size === undefined ? undefined : Math.floor(limits.size);
    this.#limits = { ...limits, size: maxSize };
    const dispose = (entry: Entry<V>, key: K, reason: LRUCache.DisposeReason) => {
      if (this.#keeping && reason !== 'evict') return;
      this.#size -= entry.size;
      const removing = limits.removed?.(entry.value, key);
      if (removing) this.#track(removing);
    };
    // lru-cache wants sizes of at least 1; one larger than all is counted as all, and so kept alone
    const sizeCalculation = (entry: Entry<V>) => Math.min(maxSize!, Math.max(1, Math.ceil(entry.size)));
    this.#lru = maxSize
      ? new LRUCache<K, Entry<V>>({ max: limits.entries, maxSize, sizeCalculation, dispose })
      : new LRUCache<K, Entry<V>>({ max: limits.entries ?? 1, dispose });
  }

  /** The entries kept. */
  get count(): number {
    return this.#lru.size;
  }

  /** The sum of the sizes of the entries kept. */
  get size(): number {
    return this.#size;
  }

  /** The value, made the most recently used. */
  get(key: K): V | undefined {
    return this.#lru.get(key)?.value;
  }

  /** The value, without counting it as used. */
  peek(key: K): V | undefined {
    return this.#lru.peek(key)?.value;
  }

  has(key: K): boolean {
    return this.#lru.has(key);
  }

  /** Keeps the value (its size from `sizeOf`, or `size`), evicting others past the limits. */
  set(key: K, value: V, size = this.#limits.sizeOf?.(value, key) ?? 1): void {
    if (this.#lru.peek(key)?.value === value) return this.resize(key, value, size);
    if (this.#limits.size === 0) {
      this.#lru.delete(key);
      const removing = this.#limits.removed?.(value, key);
      if (removing) this.#track(removing);
      return;
    }
    this.#size += size;
    this.#lru.set(key, { value, size });
  }

  /** Gives the entry kept under `key`, if it is `value`, a new size (and makes it the most recent). */
  resize(key: K, value: V, size: number): void {
    const entry = this.#lru.peek(key);
    if (entry?.value !== value) return;
    this.#size += size - entry.size;
    this.#keeping = true;
    try {
      this.#lru.set(key, { value, size });
    } finally {
      this.#keeping = false;
    }
  }

  /** Removes the entry without `removed`: the caller takes over what its value holds. */
  take(key: K): V | undefined {
    const entry = this.#lru.peek(key);
    if (!entry) return undefined;
    this.#size -= entry.size;
    this.#keeping = true;
    try {
      this.#lru.delete(key);
    } finally {
      this.#keeping = false;
    }
    return entry.value;
  }

  /** Removes the entry, if it is `value` when one is given. */
  delete(key: K, value?: V): boolean {
    if (value !== undefined && this.#lru.peek(key)?.value !== value) return false;
    return this.#lru.delete(key);
  }

  /** Removes every entry for which `test` holds. */
  deleteWhere(test: (value: V, key: K) => boolean): void {
    for (const [key, entry] of [...this.#lru.entries()] as [K, Entry<V>][]) if (test(entry.value, key)) this.#lru.delete(key);
  }

  /** The entries, least recently used first. */
  *entries(): Generator<[K, V]> {
    for (const [key, entry] of this.#lru.rentries() as Generator<[K, Entry<V>]>) yield [key, entry.value];
  }

  clear(): void {
    this.#lru.clear();
  }

  /** Waits for the work of `removed` under way; throws the first error of it. */
  async removalsDone(): Promise<void> {
    for (const outcome of await Promise.all([...this.#removing])) if (outcome instanceof Error) throw outcome;
  }

  #track(work: Promise<unknown>): void {
    const settled: Promise<unknown> = work.then(
      () => this.#removing.delete(settled),
      (error: unknown) => {
        this.#removing.delete(settled);
        return error;
      },
    );
    this.#removing.add(settled);
  }
}
