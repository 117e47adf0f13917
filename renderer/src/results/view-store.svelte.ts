import { SvelteMap } from 'svelte/reactivity';
import { ChartSettings, PivotSettings } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import type { LaterWrites } from '../lib/later-writes.ts';

/**
 * How a query's result was last looked at, kept by main per account (`ui:set`, key
 * `view:<queryId>`), so it comes back on the next visit and after a restart.
 */
/** The grid's sort and column filters, valid for the columns they were saved with. */
export interface GridView {
  columns: string[];
  sort: { colId: string; sort: 'asc' | 'desc' }[];
  filter: Record<string, unknown>;
}

/** What the result shows: its rows, a sample, a chart, a column's profile or a pivot. */
export type ResultMode = 'rows' | 'sample' | 'chart' | 'profile' | 'pivot';
const MODES: readonly ResultMode[] = ['rows', 'sample', 'chart', 'profile', 'pivot'];

export interface SavedView {
  mode: ResultMode;
  /** The column profiled last. */
  profiled: string | null;
  typedFilters: string;
  /** Hidden columns by name: positions may differ between runs. */
  hidden: string[];
  grid: GridView | null;
  /** The SQL editor's height above the result, in pixels. */
  editorHeight: number | null;
  /** The chart last drawn. */
  chart: ChartSettings | null;
  /** The pivot last computed. */
  pivot: PivotSettings | null;
  /** Integer columns shown divided by 10^n (raw token amounts), by name. */
  decimals: Record<string, number>;
  /** The chain an explorer link is for when a row names none; null: the first of Dune's. */
  defaultChain: string | null;
}

const EMPTY: SavedView = {
  mode: 'rows',
  profiled: null,
  typedFilters: '',
  hidden: [],
  grid: null,
  editorHeight: null,
  chart: null,
  pivot: null,
  decimals: {},
  defaultChain: null,
};
/** Past 10^77 no uint256 has a digit left before the point. */
export const MAX_DECIMALS = 77;

function readDecimals(value: unknown): Record<string, number> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, number] => Number.isInteger(entry[1]) && entry[1] > 0 && entry[1] <= MAX_DECIMALS,
    ),
  );
}
const SAVE_DELAY_MS = 400;

/** What main answered, checked field by field: a value from an older version is read as far as it fits. */
function readSavedView(value: unknown): SavedView {
  if (typeof value !== 'object' || value === null) return EMPTY;
  const v = value as Record<string, unknown>;
  const g = v.grid as Partial<GridView> | null | undefined;
  const grid =
    g && Array.isArray(g.columns) && Array.isArray(g.sort) && typeof g.filter === 'object' && g.filter !== null ? (g as GridView) : null;
  return {
    mode: MODES.find((mode) => mode === v.mode) ?? 'rows',
    profiled: typeof v.profiled === 'string' ? v.profiled : null,
    typedFilters: typeof v.typedFilters === 'string' ? v.typedFilters : '',
    hidden: Array.isArray(v.hidden) ? v.hidden.filter((name): name is string => typeof name === 'string') : [],
    grid,
    editorHeight: typeof v.editorHeight === 'number' && v.editorHeight > 0 ? v.editorHeight : null,
    chart: ChartSettings.safeParse(v.chart).data ?? null,
    pivot: PivotSettings.safeParse(v.pivot).data ?? null,
    decimals: readDecimals(v.decimals),
    defaultChain: typeof v.defaultChain === 'string' && /^[a-z0-9_]{1,40}$/.test(v.defaultChain) ? v.defaultChain : null,
  };
}

export class ViewStore {
  readonly #api: Api;
  readonly #views = new SvelteMap<string, SavedView>();
  readonly #loading = new Map<string, Promise<SavedView>>();
  readonly #later: LaterWrites;

  constructor(api: Api, later: LaterWrites) {
    this.#api = api;
    this.#later = later;
  }

  /** The saved view, once loaded (undefined before). */
  get(accountId: string, queryId: number): SavedView | undefined {
    return this.#views.get(`${accountId}\u0000${queryId}`);
  }

  load(accountId: string, queryId: number): Promise<SavedView> {
    const key = `${accountId}\u0000${queryId}`;
    const known = this.#views.get(key);
    if (known) return Promise.resolve(known);
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#api.invoke('ui:get', { accountId, key: `view:${queryId}` }).then((answer) => {
        this.#loading.delete(key);
        const view = this.#views.get(key) ?? readSavedView(answer.ok ? answer.data.value : null);
        this.#views.set(key, view);
        return view;
      });
      this.#loading.set(key, loading);
    }
    return loading;
  }

  /**
   * Changes the saved view. Changes that come in streams (a column dragged, a filter typed) are
   * saved once they pause; a chart drawn or a pivot computed is saved at once, as a window closed
   * right after would otherwise lose it.
   */
  update(accountId: string, queryId: number, patch: Partial<SavedView>): void {
    const key = `${accountId}\u0000${queryId}`;
    const view = { ...(this.#views.get(key) ?? EMPTY), ...patch };
    this.#views.set(key, view);
    const save = () => void this.#api.invoke('ui:set', { accountId, key: `view:${queryId}`, value: JSON.parse(JSON.stringify(view)) });
    if (patch.chart !== undefined || patch.pivot !== undefined) {
      this.#later.cancel(`view\u0000${key}`);
      save();
    } else this.#later.schedule(`view\u0000${key}`, SAVE_DELAY_MS, save);
  }
}
