import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import type { BoundSql } from '../../filter-language/index.ts';
import { BoundedCache } from '../bounded-cache.ts';
import { InFlight } from '../in-flight.ts';
import type { StoredSize } from './row-bytes.ts';

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
    const key = keyOf(executionId, where);
    const known = this.#totals.get(key);
    if (known) return known;
    return this.#counting.run(key, async () => {
      const size = await count();
      this.#totals.set(key, size);
      return size;
    });
  }

  /** The total of the rows of `executionId` that pass `where`, when remembered. */
  known(executionId: string, where: BoundSql): StoredSize | undefined {
    return this.#totals.get(keyOf(executionId, where));
  }

  /** Remembers a total counted along with a page. */
  remember(executionId: string, where: BoundSql, size: StoredSize): void {
    this.#totals.set(keyOf(executionId, where), size);
  }

  /** Forgets the totals of a result that is dropped. */
  forget(executionId: string): void {
    this.#totals.deleteWhere((_, key) => key.startsWith(`${executionId}\u0000`));
  }
}

function keyOf(executionId: string, where: BoundSql): string {
  return [executionId, where.sql, ...where.params].join('\u0000');
}
