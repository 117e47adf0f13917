import { estimateCost, type ResultSummary, type UsageRates } from '$contract/index.ts';
import { formatCount, plural } from '../lib/format.ts';

/** A result's datapoints as the service counted them, else its cells. */
export function datapointsOf(result: ResultSummary): number {
  return result.datapointCount ?? result.totalRowCount * result.columnNames.length;
}

const costFormat = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 3 });

/** "≈ 12.3 credits": always marked as an estimate. */
export function costText(cost: number, unit: string): string {
  return `≈ ${costFormat.format(cost)}${unit ? ` ${unit}` : ''}`;
}

/** The estimated cost of reading this many datapoints; null without rates. */
export function readCostText(rates: UsageRates, datapoints: number): string | null {
  const cost = estimateCost(rates, { datapoints, executions: 0 });
  return cost === null ? null : costText(cost, rates.unit);
}

/** The datapoints of the same rows with only `chosen` of the `all` columns, as the service counts them. */
export function chosenDatapoints(chosen: number, all: number, datapoints: number): number {
  return all === 0 || chosen >= all ? datapoints : Math.round((datapoints / all) * chosen);
}

/** "3 of 12 columns: 250,000 datapoints instead of 1,000,000"; null when every column is asked for. */
export function columnsText(chosen: number, all: number, datapoints: number): string | null {
  if (chosen >= all || all === 0) return null;
  const lowered = chosenDatapoints(chosen, all, datapoints);
  return `${formatCount(chosen)} of ${plural(all, 'column', 'columns')}: ${formatCount(lowered)} datapoints instead of ${formatCount(datapoints)}`;
}
