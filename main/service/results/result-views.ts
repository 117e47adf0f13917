import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { BoundedCache } from '../bounded-cache.ts';
import type { Database } from '../storage/duckdb.ts';

// Cells (rows times columns) of all views kept (what that is in memory: bench/RESULTS.md).
// The view in use is kept even when it alone is larger.
const KEPT = { cells: SERVICE_CACHES.viewCells, views: SERVICE_CACHES.views };
// Views asked for once and not made, remembered so that the second ask makes one.
const REMEMBERED_ASKS = SERVICE_CACHES.rememberedAsks;
// Views of every instance share the DuckDB's `memory` catalog: their names are counted here.
let made = 0;

interface View {
  name: string;
  executionId: string;
  /** Null while the view is made. */
  cells: number | null;
  users: number;
  /** When its last reader was done (performance.now()). */
  usedAt: number;
  ready: Promise<void>;
  /** The result was dropped while the view was read: its last reader drops it. */
  orphaned: boolean;
}

/** Creates the table `target` (the view's rows, in its order) and answers its cells. */
export type FillView = (target: string) => Promise<number>;

/**
 * The rows of a stored result that pass a filter, in a sort order, materialized once and kept
 * (least recently used first out) in the results DuckDB's memory, which spills to disk. Filtering
 * and sorting a million rows takes tens of milliseconds a page; a page of a view is a slice by row
 * position, about two. A view's rowid is its row's position, as it is written in its order.
 */
export class ResultViews {
  readonly #db: Database;
  readonly #dropped: (table: string) => void;
  /** Sized by their cells: nothing while they are made. */
  readonly #views: BoundedCache<string, View>;
  readonly #asked = new BoundedCache<string, true>({ entries: REMEMBERED_ASKS });

  /** `dropped` hears of each view's table as it is dropped; `kept` bounds the views kept. */
  constructor(db: Database, dropped: (table: string) => void = () => undefined, kept = KEPT) {
    this.#db = db;
    this.#dropped = dropped;
    this.#views = new BoundedCache<string, View>({ entries: kept.views, size: kept.cells, removed: (view) => this.#removed(view) });
  }

  /**
   * Whether a read should go through the view named by `key`: when it is kept, or asked for again.
   * A single page (the first of a filter, or a one-off) is cheaper read straight, as a top-N sort,
   * than made into a view; paging on asks again, and then the view pays back.
   */
  worthMaking(key: string): boolean {
    if (this.#views.has(key) || this.#asked.delete(key)) return true;
    this.#asked.set(key, true);
    return false;
  }

  /** Whether the view named by `key` is kept and made. */
  isMade(key: string): boolean {
    return this.#views.peek(key)?.cells != null;
  }

  /** The key of a view of the result that is kept and made, if there is one. */
  madeKeyOf(executionId: string): string | undefined {
    for (const [key, view] of this.#views.entries()) if (view.executionId === executionId && view.cells !== null) return key;
    return undefined;
  }

  /** Runs `work` with the view named by `key` (its table and cells), made by `fill` first if it is not kept. */
  async use<T>(executionId: string, key: string, fill: FillView, work: (table: string, cells: number) => Promise<T>): Promise<T> {
    const view = this.#views.get(key) ?? this.#make(executionId, key, fill);
    view.users++;
    try {
      await view.ready;
      return await work(`memory.main.${view.name}`, view.cells!);
    } finally {
      view.users--;
      view.usedAt = performance.now();
      if (view.orphaned && view.users === 0) await this.#dropTable(view);
      await this.#views.removalsDone();
    }
  }

  /** Drops the views no one has read for `idleMillis`: each holds its rows in the DuckDB's memory until then. */
  async dropIdle(idleMillis: number): Promise<void> {
    const now = performance.now();
    this.#views.deleteWhere((view) => view.users === 0 && view.cells !== null && now - view.usedAt >= idleMillis);
    await this.#views.removalsDone();
  }

  /** Forgets the views of a result that is being deleted. */
  async dropAll(executionId: string): Promise<void> {
    this.#views.deleteWhere((view) => view.executionId === executionId);
    await this.#views.removalsDone();
  }

  #make(executionId: string, key: string, fill: FillView): View {
    const view: View = {
      name: `view_${++made}`,
      executionId,
      cells: null,
      users: 0,
      usedAt: 0,
      ready: Promise.resolve(),
      orphaned: false,
    };
    this.#views.set(key, view, 0);
    view.ready = fill(`memory.main.${view.name}`).then((cells) => {
      view.cells = cells;
      this.#views.resize(key, view, cells);
    });
    // a filter DuckDB refused makes no view: the next request tries again and gets the same error
    view.ready.catch(() => this.#views.delete(key, view));
    return view;
  }

  /** A view evicted or dropped: its table goes now, or after its last reader. */
  #removed(view: View): Promise<void> | undefined {
    if (view.users === 0) return this.#dropTable(view);
    view.orphaned = true;
    return undefined;
  }

  async #dropTable(view: View): Promise<void> {
    this.#dropped(`memory.main.${view.name}`);
    await this.#db.run(`DROP TABLE IF EXISTS memory.main.${view.name}`);
  }
}
