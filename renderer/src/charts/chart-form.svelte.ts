import type { ChartData, ContractError } from '../../../main/contract/index.ts';
import { resultIds, type ResultSource } from '../results/result-source.ts';
import { chartCaption, chartConfig, type ChartKind } from './chart-config.ts';
import { isNumericType, isTemporalType } from '../results/grid/columns.ts';
import type { ViewColumn } from '../results/grid/view-language.ts';

/** Identifiers are numbers too, but summing them means nothing. */
const ID_LIKE = /(^|_)id$/i;

export type Aggregation = ChartData['aggregation'];

/** The quick chart's choices, with defaults read from the columns' types, and its last answer. */
export class ChartForm {
  kind = $state<ChartKind>('bar');
  x = $state('');
  y = $state.raw<string[]>([]);
  groupBy = $state('');
  aggregation = $state<Aggregation>('sum');
  data = $state.raw<ChartData | null>(null);
  /** The kind the data was drawn as. */
  drawnKind = $state<ChartKind>('bar');
  error = $state.raw<ContractError | null>(null);
  loading = $state(false);
  config = $derived(this.data ? chartConfig(this.data, this.drawnKind) : null);
  caption = $derived(this.data ? chartCaption(this.data, this.drawnKind) : null);
  readonly columns: ViewColumn[];

  /** A time column on x gives a line; the first number that is neither x nor an id is the value. */
  constructor(columns: ViewColumn[]) {
    this.columns = columns;
    const time = columns.find((c) => isTemporalType(c.type));
    const x = time ?? columns[0];
    this.x = x?.name ?? '';
    this.kind = time ? 'line' : 'bar';
    const numbers = columns.filter((c) => c.name !== this.x && isNumericType(c.type));
    const y = numbers.find((c) => !ID_LIKE.test(c.name)) ?? numbers[0];
    this.y = y ? [y.name] : [];
    this.aggregation = y ? 'sum' : 'count';
  }

  toggleY(name: string): void {
    this.y = this.y.includes(name) ? this.y.filter((n) => n !== name) : [...this.y, name];
  }

  get canDraw(): boolean {
    return this.x !== '' && (this.y.length > 0 || this.aggregation === 'count');
  }

  async draw(source: ResultSource, filters: string): Promise<void> {
    this.loading = true;
    const kind = this.kind;
    const answer = await source.api.invoke('results:chart', {
      ...resultIds(source),
      x: this.x,
      y: this.y,
      groupBy: this.groupBy === '' ? null : this.groupBy,
      aggregation: this.aggregation,
      ...(filters ? { filters } : {}),
    });
    this.loading = false;
    if (answer.ok) {
      this.data = answer.data;
      this.drawnKind = kind;
      this.error = null;
    } else this.error = answer.error;
  }
}
