import type { ExecutionRecord } from '../../contract/index.ts';
import type { CacheEntry } from '../cache/manifest.ts';

// The names a cached result is known by in local SQL: after its query and run, so that a
// statement reads as what it joins (`q_1234_latest`, `q_1234_run_20261126_1405`), and a short
// alias from the query's name for its latest run. Runs the app did not start have no query to
// be named after, and go by their execution's id.

/** Local SQL's own results are cached like any other, under execution ids of this prefix. */
export const LOCAL_RESULT_PREFIX = 'local-';

export interface LocalTable {
  name: string;
  aliases: string[];
  executionId: string;
  /** The cached result's table in the cache's file. */
  tableName: string;
  columns: { name: string; type: string }[];
  rowCount: number;
  queryId: number | null;
  queryName: string | null;
  /** When the run ended (or was sent), as the app saw it. */
  ranAt: string | null;
}

/** The account's cached results as tables, newest run first. */
export function nameTables(entries: CacheEntry[], runs: readonly ExecutionRecord[]): LocalTable[] {
  const runOf = new Map(runs.map((r) => [r.executionId, r]));
  const taken = new Set<string>();
  const unique = (name: string): string => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
    taken.add(candidate);
    return candidate;
  };
  const cached = entries
    .filter((e) => !e.executionId.startsWith(LOCAL_RESULT_PREFIX))
    .map((entry) => ({ entry, run: runOf.get(entry.executionId) ?? null }))
    .map(({ entry, run }) => ({ entry, run, ranAt: run ? (run.endedAt ?? run.submittedAt) : null }))
    .sort((a, b) => (b.ranAt ?? b.entry.fetchedAt).localeCompare(a.ranAt ?? a.entry.fetchedAt));
  const latestSeen = new Set<number>();
  return cached.map(({ entry, run, ranAt }) => {
    const queryId = run && run.queryId > 0 ? run.queryId : null;
    const name = unique(queryId === null ? `run_${identifierPart(entry.executionId)}` : `q_${queryId}_run_${minuteOf(ranAt!)}`);
    const aliases: string[] = [];
    if (queryId !== null && !latestSeen.has(queryId)) {
      latestSeen.add(queryId);
      aliases.push(unique(`q_${queryId}_latest`));
      const short = run?.queryName ? identifierPart(run.queryName) : '';
      if (/^[a-z]/.test(short)) aliases.push(unique(short));
    }
    return {
      name,
      aliases,
      executionId: entry.executionId,
      tableName: entry.tableName,
      columns: entry.columns.map((c) => ({ name: c.name, type: c.type })),
      rowCount: entry.rowCount,
      queryId,
      queryName: run?.queryName ?? null,
      ranAt,
    };
  });
}

/** `2026-11-26T14:05:33.000Z` as `20261126_1405` (UTC). */
function minuteOf(iso: string): string {
  const digits = iso.replace(/[^0-9]/g, '');
  return `${digits.slice(0, 8)}_${digits.slice(8, 12)}`;
}

/** Text as a part of an unquoted SQL name: lower case letters, digits and single underscores. */
function identifierPart(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
}
