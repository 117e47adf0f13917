import type { QueryParameter, QueryVersion } from '$contract/index.ts';
import { countChanges, diffLines } from '../lib/line-diff.ts';

// What changed between two versions of a query: its parameters, one entry per key, and a line
// that sums a version up against the one before it.

export type ParameterChange =
  | { key: string; change: 'added'; after: QueryParameter }
  | { key: string; change: 'removed'; before: QueryParameter }
  /** `what`: each difference in words, such as `default 7 → 30`. */
  | { key: string; change: 'changed'; what: string[] };

const shown = (text: string) => (text === '' ? '(empty)' : text);

/** The differences of one parameter kept under the same key, in words. */
function differences(before: QueryParameter, after: QueryParameter): string[] {
  const what: string[] = [];
  if (before.type !== after.type) what.push(`type ${before.type} → ${after.type}`);
  if (before.value !== after.value) what.push(`default ${shown(before.value)} → ${shown(after.value)}`);
  const options = (p: QueryParameter) => (p.enumOptions ?? []).join(', ');
  if (options(before) !== options(after)) what.push(`choices ${shown(options(before))} → ${shown(options(after))}`);
  if ((before.isMultiselect ?? false) !== (after.isMultiselect ?? false))
    what.push(after.isMultiselect ? 'now takes several values' : 'now takes one value');
  if ((before.description ?? '') !== (after.description ?? '')) what.push('description changed');
  return what;
}

/** From `before` to `after`: the keys added, removed, or kept with another definition; in `after`'s order, the removed last. */
export function diffParameters(before: QueryParameter[], after: QueryParameter[]): ParameterChange[] {
  const old = new Map(before.map((p) => [p.key, p]));
  const now = new Set(after.map((p) => p.key));
  const changes: ParameterChange[] = [];
  for (const parameter of after) {
    const was = old.get(parameter.key);
    if (!was) changes.push({ key: parameter.key, change: 'added', after: parameter });
    else {
      const what = differences(was, parameter);
      if (what.length > 0) changes.push({ key: parameter.key, change: 'changed', what });
    }
  }
  for (const parameter of before) {
    if (!now.has(parameter.key)) changes.push({ key: parameter.key, change: 'removed', before: parameter });
  }
  return changes;
}

/** One line for the list of versions: what this version changed from the one before it. */
export function versionSummary(version: QueryVersion, previous: QueryVersion | undefined): string {
  if (!previous) return 'The earliest version kept here.';
  const parts: string[] = [];
  const { added, removed } = countChanges(diffLines(previous.sql, version.sql));
  if (added + removed > 0) parts.push(`SQL +${added} −${removed} ${added + removed === 1 ? 'line' : 'lines'}`);
  const parameters = diffParameters(previous.parameters, version.parameters);
  for (const change of ['added', 'removed', 'changed'] as const) {
    const keys = parameters.filter((p) => p.change === change).map((p) => p.key);
    if (keys.length > 0) parts.push(`${keys.length === 1 ? 'parameter' : 'parameters'} ${keys.join(', ')} ${change}`);
  }
  if (version.name !== previous.name) parts.push(`renamed from “${previous.name}”`);
  return parts.length > 0 ? parts.join(' · ') : 'No change to the SQL or parameters (name, tags, description or flags).';
}
