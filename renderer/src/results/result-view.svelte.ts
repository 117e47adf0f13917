import { SvelteSet } from 'svelte/reactivity';
import type { ContractError, FromCache, ResultSummary } from '$contract/index.ts';
import { chainColumn } from '../../../main/common/explorers/index.ts';
import { checkFilters, refusedFilter, type FilterProblem } from './check-filters.ts';
import { columnsParam, combineFilters, type ViewColumn } from './grid/view-language.ts';

/**
 * What the user asked to see of one result: the typed filter, the grid's column filters and sort,
 * the chosen columns; and what the service answered about that view. Shared by the grid, the
 * status line, charts and exports, so all of them describe the same rows.
 */
export class ResultView {
  readonly columns: ViewColumn[];
  /** The filter bar as typed. */
  draft = $state('');
  /** The typed filter last applied (Enter). */
  typedFilters = $state('');
  /** From the grid's column filters and headers, as last sent. */
  gridFilters = $state('');
  sortBy = $state('');
  /** Integer columns shown divided by 10^n, by name. */
  decimals = $state.raw<Readonly<Record<string, number>>>({});
  /** The chain explorer links are for when a row names none; null: the first of Dune's. */
  defaultChain = $state<string | null>(null);
  /** Positions of the hidden columns. */
  readonly hidden = new SvelteSet<number>();
  /** Rows in the current view (all of them unless filtered), from the last page read. */
  viewRowCount = $state<number | null>(null);
  fromCache = $state.raw<FromCache | null>(null);
  /** What the service (or the cache) refused of a typed filter the parser let through, while it is the draft. */
  #refused = $state.raw<{ text: string; problem: FilterProblem } | null>(null);
  /** The typed filter whose rows last arrived: the view to go back to when the next one is refused. */
  #lastGood = '';

  draftProblem = $derived.by(
    () => checkFilters(this.draft, this.columns) ?? (this.#refused?.text === this.draft.trim() ? this.#refused.problem : null),
  );
  visible = $derived.by(() => this.columns.filter((c) => !this.hidden.has(c.index)));
  filters = $derived(combineFilters(this.typedFilters, this.gridFilters));
  /** Absent while every column is shown: the whole row is what the service sends by default. */
  columnsParam = $derived(this.hidden.size === 0 ? undefined : columnsParam(this.visible.map((c) => c.name)));
  /**
   * The columns of the grid's rows: the visible ones, then the row's chain column if it is hidden,
   * so an explorer link still takes its chain from the row. The grid shows only the visible ones.
   */
  rowColumns = $derived.by(() => {
    const chain = this.columns[chainColumn(this.columns.map((c) => c.name))];
    return chain && this.hidden.has(chain.index) ? [...this.visible, chain] : this.visible;
  });
  /** The grid's `columns` request: absent while every column is shown. */
  rowColumnsParam = $derived(this.hidden.size === 0 ? undefined : columnsParam(this.rowColumns.map((c) => c.name)));

  /** `saved`: how the query's result was last looked at; what no longer fits these columns is left out. */
  constructor(
    result: ResultSummary,
    saved?: { typedFilters: string; hidden: string[]; decimals?: Record<string, number>; defaultChain?: string | null },
  ) {
    this.columns = result.columnNames.map((name, index) => ({ name, type: result.columnTypes[index] ?? '', index }));
    if (!saved) return;
    this.decimals = saved.decimals ?? {};
    this.defaultChain = saved.defaultChain ?? null;
    const hidden = this.columns.filter((c) => saved.hidden.includes(c.name)).map((c) => c.index);
    if (hidden.length < this.columns.length) for (const index of hidden) this.hidden.add(index);
    this.draft = saved.typedFilters;
    if (!this.applyDraft()) this.draft = saved.typedFilters;
  }

  decimalsOf(name: string): number {
    return this.decimals[name] ?? 0;
  }

  /** Shows the column's values divided by 10^decimals; 0 shows them as they are. */
  scaleColumn(name: string, decimals: number): void {
    const { [name]: _dropped, ...rest } = this.decimals;
    this.decimals = decimals > 0 ? { ...rest, [name]: decimals } : rest;
  }

  /** Hidden columns by name, as kept between visits. */
  hiddenNames(): string[] {
    return this.columns.filter((c) => this.hidden.has(c.index)).map((c) => c.name);
  }

  /** Applies the typed filter unless the parser refuses it; answers whether it did. */
  applyDraft(): boolean {
    if (this.draftProblem) return false;
    this.typedFilters = this.draft.trim();
    return true;
  }

  /** The rows of the applied filters arrived: this is the view to keep if a later filter is refused. */
  answered(): void {
    this.#lastGood = this.typedFilters;
  }

  /**
   * A page of a newly applied typed filter was refused: the filter bar shows why, at its position,
   * and the view goes back to the last one that answered, with its rows and count. Answers whether
   * the error was such a refusal (any other is the grid's to show).
   */
  refuse(error: ContractError): boolean {
    if (this.typedFilters === this.#lastGood) return false;
    const problem = refusedFilter(error, this.typedFilters, this.gridFilters);
    if (!problem) return false;
    this.#refused = { text: this.typedFilters, problem };
    this.typedFilters = this.#lastGood;
    return true;
  }

  clearDraft(): void {
    this.draft = '';
    this.typedFilters = '';
  }

  toggleColumn(index: number): void {
    if (this.hidden.has(index)) this.hidden.delete(index);
    else if (this.visible.length > 1) this.hidden.add(index);
  }

  showAll(): void {
    this.hidden.clear();
  }

  /** The request's view part, with empty parts left out. */
  request(): { filters?: string; sortBy?: string; columns?: string } {
    return {
      ...(this.filters ? { filters: this.filters } : {}),
      ...(this.sortBy ? { sortBy: this.sortBy } : {}),
      ...(this.columnsParam ? { columns: this.columnsParam } : {}),
    };
  }
}
