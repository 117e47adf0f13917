import { SvelteSet } from 'svelte/reactivity';
import {
  type ChannelRequest,
  PIVOT_MAX_MEASURES,
  PIVOT_MAX_ROWS,
  PivotSettings,
  type ContractError,
  type PivotMeasure,
  type PivotTable,
  type TimeGrain,
} from '$contract/index.ts';
import { columnKind } from '../results/grid/cell-format.ts';
import { isTemporalType } from '../results/grid/columns.ts';
import type { ViewColumn } from '../results/grid/view-language.ts';
import { resultIds, type ResultSource } from '../results/result-source.ts';

/** A group's key as the fold state names it. */
export const groupId = (key: PivotTable['groups'][number]['key']) => JSON.stringify(key);

type Grouping = { column: string; grain: TimeGrain | null };

/** Columns of single values: a pivot groups and measures those only (main refuses the rest, saying why). */
function pivotable(column: ViewColumn): boolean {
  const kind = columnKind(column.type);
  return kind !== 'nested' && kind !== 'json';
}

/**
 * A pivot's choices and its last answer, with the groups folded in the table. Starts from the
 * settings last computed for the query when they still fit its columns, else from the first text
 * column counted.
 */
export class PivotForm {
  rows = $state<Grouping[]>([]);
  split = $state<(Grouping & { top: number }) | null>(null);
  measures = $state<PivotMeasure[]>([{ fn: 'count', column: null }]);
  sort = $state<PivotSettings['sort']>(null);
  data = $state.raw<PivotTable | null>(null);
  error = $state.raw<ContractError | null>(null);
  loading = $state(false);
  readonly folded = new SvelteSet<string>();
  readonly columns: ViewColumn[];
  #restored: boolean;

  /** The groups shown: those under a folded group are left out. */
  shown = $derived.by(() => {
    const groups = this.data?.groups ?? [];
    if (this.folded.size === 0) return groups;
    return groups.filter((g) => !g.key.some((_, depth) => depth < g.key.length && this.folded.has(groupId(g.key.slice(0, depth)))));
  });
  canAddRow = $derived(this.rows.length < PIVOT_MAX_ROWS);
  canAddMeasure = $derived(this.measures.length < PIVOT_MAX_MEASURES);

  constructor(columns: ViewColumn[], saved: PivotSettings | null) {
    this.columns = columns.filter(pivotable);
    const names = new Set(this.columns.map((c) => c.name));
    const fits =
      saved !== null &&
      [...saved.rows, ...(saved.split ? [saved.split] : [])].every((g) => names.has(g.column)) &&
      saved.measures.every((m) => !m.column || names.has(m.column));
    this.#restored = fits;
    if (fits) {
      this.rows = saved.rows.map((r) => ({ column: r.column, grain: r.grain ?? null }));
      this.split = saved.split ? { column: saved.split.column, grain: saved.split.grain ?? null, top: saved.split.top } : null;
      this.measures = saved.measures.map((m) => ({ fn: m.fn, column: m.column ?? null }));
      this.sort = saved.sort ?? null;
    } else {
      const first = this.columns.find((c) => columnKind(c.type) === 'text') ?? this.columns[0];
      this.rows = first ? [{ column: first.name, grain: null }] : [];
    }
  }

  /** Whether the column groups by a unit of time (a time column does; any other by its values). */
  isTime(name: string): boolean {
    const column = this.columns.find((c) => c.name === name);
    return column !== undefined && isTemporalType(column.type);
  }

  addRow(): void {
    const unused = this.columns.find((c) => !this.rows.some((r) => r.column === c.name));
    if (unused && this.canAddRow) this.rows.push({ column: unused.name, grain: null });
  }

  addMeasure(): void {
    if (this.canAddMeasure) this.measures.push({ fn: 'count', column: null });
  }

  /** A measure's function, giving it a column when it needs one (and none for a count). */
  setFn(index: number, fn: PivotMeasure['fn']): void {
    const measure = this.measures[index]!;
    measure.fn = fn;
    if (fn === 'count') measure.column = null;
    else measure.column ??= this.columns[0]?.name ?? null;
  }

  settings(): PivotSettings {
    const grouping = (g: Grouping) => ({ column: g.column, grain: this.isTime(g.column) ? g.grain : null });
    return PivotSettings.parse({
      rows: this.rows.map(grouping),
      split: this.split ? { ...grouping(this.split), top: this.split.top } : null,
      measures: this.measures.map((m) => ({ fn: m.fn, column: m.fn === 'count' ? null : m.column })),
      sort: this.sort && this.sort.measure < this.measures.length ? this.sort : null,
    });
  }

  /** True once: the settings restored from the query's view, to compute by themselves once cached. */
  takeRestored(): boolean {
    const restored = this.#restored;
    this.#restored = false;
    return restored;
  }

  toggle(key: PivotTable['groups'][number]['key']): void {
    const id = groupId(key);
    if (!this.folded.delete(id)) this.folded.add(id);
  }

  /** The request `data` answers: what a file of the table shown asks main to compute again. */
  computed: ChannelRequest<'results:pivot'> | null = null;

  async compute(source: ResultSource, filters: string): Promise<PivotSettings | null> {
    const settings = this.settings();
    this.loading = true;
    const request = { ...resultIds(source), ...settings, ...(filters ? { filters } : {}) };
    const answer = await source.api.invoke('results:pivot', request);
    this.loading = false;
    if (!answer.ok) {
      this.error = answer.error;
      return null;
    }
    this.error = null;
    this.data = answer.data;
    this.computed = request;
    this.folded.clear();
    return settings;
  }
}
