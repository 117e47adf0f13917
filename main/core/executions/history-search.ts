import type { ExecutionRecord, HistoryEntry } from '../../contract/index.ts';

// The history panel's search: every word typed must be found, in any case, in what the panel shows
// of a run (its query's name, its SQL, its values, its account, its state, its id, its day).

/** The words of a search, lower-cased; none matches every run. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

// What a run shows is searched in two parts: texts many runs share (a query's name and SQL, an
// account), kept once lower-cased under a number and tested once per search; and the run's own
// words (its values, state, id, day and error). Both are made once per record, a record that
// changes being a new object; a search then reads one entry per run.
interface Searched {
  /** The number of the run's shared texts (`sharedTexts`). */
  shared: number;
  own: string;
}

/** By account and query name, then by SQL: a key made of the SQL too was most of making a run's entry. */
const sharedNumbers = new Map<string, Map<string, number>>();
const sharedTexts: { name: string; sql: string; accountId: string }[] = [];
const searched = new WeakMap<ExecutionRecord, Searched>();

function searchedOf(record: ExecutionRecord): Searched {
  let found = searched.get(record);
  if (found === undefined) {
    const name = record.queryName ?? '';
    const sql = record.sql ?? record.querySql ?? '';
    const head = `${record.accountId}\u0000${name}`;
    let bySql = sharedNumbers.get(head);
    if (bySql === undefined) sharedNumbers.set(head, (bySql = new Map()));
    let shared = bySql.get(sql);
    if (shared === undefined) {
      shared = sharedTexts.push({ name: name.toLowerCase(), sql: sql.toLowerCase(), accountId: record.accountId }) - 1;
      bySql.set(sql, shared);
    }
    searched.set(record, (found = { shared, own: ownText(record) }));
  }
  return found;
}

function ownText(record: ExecutionRecord): string {
  const values = Object.entries(record.parameters).map(([name, value]) => `${name}=${String(value)}`);
  const parts = [...values, stateWord(record.state), record.executionId, record.submittedAt.slice(0, 10), record.error?.message ?? ''];
  return parts.join('\n').toLowerCase();
}

/** Runs whose own words are made per turn of the event loop, answering other requests between. */
const PREPARED_PER_TURN = 5_000;

/**
 * Makes each run's own words behind the panel's opening, so that the first search typed does not
 * make them all: over 100,000 runs that is a few hundred ms, where a search takes tens.
 */
export async function prepareHistorySearch(records: readonly ExecutionRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += PREPARED_PER_TURN) {
    for (let i = start; i < Math.min(records.length, start + PREPARED_PER_TURN); i++) searchedOf(records[i]!);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** QUERY_STATE_COMPLETED_PARTIAL: "completed partial". */
function stateWord(state: string): string {
  return state.replace(/^QUERY_STATE_/, '').replaceAll('_', ' ');
}

export interface HistorySearch {
  words: string[];
  accountId?: string;
  limit: number;
  /** An account's name, searched too. */
  accountName: (accountId: string) => string;
}

/** The first `limit` records (newest first, as given) that hold every word, and how many do. */
export function searchHistory(records: readonly ExecutionRecord[], search: HistorySearch): { entries: HistoryEntry[]; total: number } {
  const entries: HistoryEntry[] = [];
  const names = new Map<string, string>();
  const nameOf = (accountId: string) => {
    if (!names.has(accountId)) names.set(accountId, search.accountName(accountId));
    return names.get(accountId)!;
  };
  const { words } = search;
  // which of the words each run's shared texts hold, found once for each of them this search
  const sharedHits: (boolean[] | undefined)[] = [];
  const hitsOf = (shared: number) => {
    const texts = sharedTexts[shared]!;
    const account = nameOf(texts.accountId).toLowerCase();
    return (sharedHits[shared] = words.map((word) => texts.name.includes(word) || texts.sql.includes(word) || account.includes(word)));
  };
  const holdsAll = (record: ExecutionRecord) => {
    const { shared, own } = searchedOf(record);
    const hits = sharedHits[shared] ?? hitsOf(shared);
    for (let i = 0; i < words.length; i++) if (!hits[i] && !own.includes(words[i]!)) return false;
    return true;
  };
  let total = 0;
  for (const record of records) {
    if (search.accountId !== undefined && record.accountId !== search.accountId) continue;
    if (words.length > 0 && !holdsAll(record)) continue;
    total++;
    if (entries.length < search.limit) entries.push(historyEntry(record, nameOf(record.accountId)));
  }
  return { entries, total };
}

export function historyEntry(record: ExecutionRecord, accountName: string): HistoryEntry {
  const ended = record.endedAt === null ? Number.NaN : Date.parse(record.endedAt) - Date.parse(record.submittedAt);
  const result = record.result ?? null;
  return {
    accountId: record.accountId,
    accountName,
    executionId: record.executionId,
    queryId: record.queryId,
    queryName: record.queryName ?? null,
    sql: record.sql ?? record.querySql ?? '',
    isEdited: record.sql !== undefined,
    parameters: record.parameters,
    state: record.state,
    isFinished: record.isFinished,
    submittedAt: record.submittedAt,
    endedAt: record.endedAt,
    durationMs: Number.isFinite(ended) ? Math.max(0, Math.round(ended)) : null,
    rows: record.totalRowCount,
    datapoints: result === null ? null : (result.datapointCount ?? result.totalRowCount * result.columnNames.length),
    error: record.error?.message ?? null,
  };
}
