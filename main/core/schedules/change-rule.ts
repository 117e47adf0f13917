import type { ChangeMeasure, ScheduleNotify } from '../../contract/index.ts';

// Whether a refresh is news under its schedule's rule. A run that did not complete always is; a
// completed one is when notifying always, or when its figure changed since the previous run's:
// another row count, or a column's figure now on the other side of the analyst's threshold. The
// first run has nothing to compare with, so it only sets the figure the next runs are held to.

export function isNews(notify: ScheduleNotify, completed: boolean, previous: number | null, current: number | null): boolean {
  if (!completed || notify.when === 'always') return true;
  // a figure that could not be measured is said, or the analyst would wait for news that never comes
  if (current === null) return true;
  if (previous === null) return false;
  return hasChanged(notify.measure, previous, current);
}

export function hasChanged(measure: ChangeMeasure, previous: number, current: number): boolean {
  if (measure.kind === 'rows') return previous !== current;
  return previous >= measure.threshold !== current >= measure.threshold;
}

/** The figure in words, for the list and the notice. */
export function figureText(measure: ChangeMeasure, figure: number): string {
  const value = figure.toLocaleString('en-US', { maximumFractionDigits: 6 });
  if (measure.kind === 'rows') return `${value} ${figure === 1 ? 'row' : 'rows'}`;
  const side = figure >= measure.threshold ? 'at or above' : 'below';
  return `${measure.figure} of ${measure.column} is ${value}, ${side} ${measure.threshold.toLocaleString('en-US')}`;
}
