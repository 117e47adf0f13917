import type { ExecutionRecord, HistoryEntry } from '../../contract/index.ts';

// The history panel's search: every word typed must be found, in any case, in what the panel shows
// of a run (its query's name, its SQL, its values, its account, its state, its id, its day).

/** The words of a search, lower-cased; none matches every run. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

// A run's searchable text, made once per record: a record that changes is a new object.
const searchable = new WeakMap<ExecutionRecord, string>();

function searchableText(record: ExecutionRecord): string {
  let text = searchable.get(record);
  if (text === undefined) {
    const values = Object.entries(record.parameters).map(([name, value]) => `${name}=${String(value)}`);
    text = [
      record.queryName ?? '',
      record.sql ?? record.querySql ?? '',
      ...values,
      stateWord(record.state),
      record.executionId,
      record.submittedAt.slice(0, 10),
      record.error?.message ?? '',
    ]
      .join('\n')
      .toLowerCase();
    searchable.set(record, text);
  }
  return text;
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
  let total = 0;
  for (const record of records) {
    if (search.accountId !== undefined && record.accountId !== search.accountId) continue;
    const text = searchableText(record);
    const account = nameOf(record.accountId).toLowerCase();
    if (!search.words.every((word) => text.includes(word) || account.includes(word))) continue;
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
