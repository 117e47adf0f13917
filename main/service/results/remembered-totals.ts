import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import type { BoundSql } from '../../filter-language/index.ts';
import { BoundedCache } from '../bounded-cache.ts';
import { InFlight } from '../in-flight.ts';
import type { StoredSize } from './result-writer.ts';

// Filtered totals remembered, up to this many: paging through one filter counts its rows once.
const REMEMBERED = SERVICE_CACHES.rememberedTotals;

/**
 * A speed-up over counting a filter's rows with SQL for each page (ResultStore.count): a stored
 * result never changes, so the rows and bytes that pass a filter are remembered, and clients that
 * ask for a new filter at once share its one count.
 */
export class RememberedTotals {
  readonly #totals = new BoundedCache<string, StoredSize>({ entries: REMEMBERED });
  readonly #counting = new InFlight<StoredSize>();

  /** The total of the rows of `executionId` that pass `where`, counted by `count` when not remembered. */
  async total(executionId: string, where: BoundSql, count: () => Promise<StoredSize>): Promise<StoredSize> {
    const key = [executionId, where.sql, ...where.params].join('\u0000');
    const known = this.#totals.get(key);
    if (known) return known;
    return this.#counting.run(key, async () => {
      const size = await count();
      this.#totals.set(key, size);
      return size;
    });
  }

  /** Forgets the totals of a result that is dropped. */
  forget(executionId: string): void {
    this.#totals.deleteWhere((_, key) => key.startsWith(`${executionId}\u0000`));
  }
}
