import { CHART_TOP_N, ChartSettings, showsTopCategories, type ChartData, type ChartKind, type ContractError } from '$contract/index.ts';
import { isNumericType, isTemporalType } from '../results/grid/columns.ts';
import type { ViewColumn } from '../results/grid/view-language.ts';
import { resultIds, type ResultSource } from '../results/result-source.ts';
import { chartCaption, chartConfig } from './chart-config.ts';

/** Identifiers are numbers too, but summing them means nothing. */
const ID_LIKE = /(^|_)id$/i;

/**
 * The quick chart's choices and its last answer. Starts from the settings last drawn for the
 * query when there are some (what no longer fits the columns is left out), else from defaults
 * read from the columns' types.
 */
export class ChartForm {
  kind = $state<ChartKind>('bar');
  x = $state('');
  y = $state.raw<string[]>([]);
  groupBy = $state('');
  aggregation = $state<ChartSettings['aggregation']>('sum');
  /** Categories before "Other", as typed; null keeps the kind's default. */
  topN = $state<number | null>(null);
  data = $state.raw<ChartData | null>(null);
  /** The kind the data was drawn as. */
  drawnKind = $state<ChartKind>('bar');
  error = $state.raw<ContractError | null>(null);
  loading = $state(false);
  config = $derived(this.data ? chartConfig(this.data, this.drawnKind) : null);
  caption = $derived(this.data ? chartCaption(this.data, this.drawnKind) : null);
  readonly columns: ViewColumn[];
  /** Settings came from the query's view: drawn as soon as the cached result allows. */
  #restored: boolean;

  constructor(columns: ViewColumn[], saved: ChartSettings | null) {
    this.columns = columns;
    const names = new Set(columns.map((c) => c.name));
    const time = columns.find((c) => isTemporalType(c.type));
    this.x = saved && names.has(saved.x) ? saved.x : ((time ?? columns[0])?.name ?? '');
    this.kind = saved?.kind ?? (time ? 'line' : 'bar');
    const numbers = columns.filter((c) => c.name !== this.x && isNumericType(c.type));
    const y = numbers.find((c) => !ID_LIKE.test(c.name)) ?? numbers[0];
    this.y = saved ? saved.y.filter((name) => numbers.some((c) => c.name === name)) : y ? [y.name] : [];
    this.aggregation = saved?.aggregation ?? (y ? 'sum' : 'count');
    this.groupBy = saved?.groupBy && names.has(saved.groupBy) ? saved.groupBy : '';
    this.topN = saved?.topN ?? null;
    this.#restored = saved !== null;
  }

  toggleY(name: string): void {
    this.y = this.y.includes(name) ? this.y.filter((n) => n !== name) : [...this.y, name];
  }

  /** Whether this kind over this x shows top categories and "Other", so N is asked for. */
  get asksTopN(): boolean {
    const x = this.columns.find((c) => c.name === this.x);
    return showsTopCategories(this.kind, x && isTemporalType(x.type) ? 'time' : 'text');
  }

  get shownTopN(): number {
    return this.topN ?? (this.kind === 'pie' ? CHART_TOP_N.pie : CHART_TOP_N.bar);
  }

  /** What is wrong with N as typed, in words; null when it is fine. */
  get topNProblem(): string | null {
    const n = this.shownTopN;
    return Number.isInteger(n) && n >= 1 && n <= CHART_TOP_N.max ? null : `Categories must be a whole number from 1 to ${CHART_TOP_N.max}.`;
  }

  get canDraw(): boolean {
    // a scatter has no count of rows to fall back on
    const values = this.y.length > 0 || (this.aggregation === 'count' && this.kind !== 'scatter');
    return this.x !== '' && values && (!this.asksTopN || this.topNProblem === null);
  }

  /** True once, when the settings were restored: the caller draws them then. */
  takeRestored(): boolean {
    const restored = this.#restored;
    this.#restored = false;
    return restored;
  }

  /** The settings as drawn, to keep with the query's view; null when they could not be drawn. */
  async draw(source: ResultSource, filters: string): Promise<ChartSettings | null> {
    this.loading = true;
    const settings: ChartSettings = {
      kind: this.kind,
      x: this.x,
      y: this.y,
      groupBy: this.groupBy === '' || this.kind === 'pie' ? null : this.groupBy,
      aggregation: this.aggregation,
      topN: this.shownTopN,
    };
    const answer = await source.api.invoke('results:chart', { ...resultIds(source), ...settings, ...(filters ? { filters } : {}) });
    this.loading = false;
    if (!answer.ok) {
      this.error = answer.error;
      return null;
    }
    this.data = answer.data;
    this.drawnKind = settings.kind;
    this.error = null;
    return settings;
  }
}
