import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../../../main/contract/index.ts';
import { historyEntry, prepareHistorySearch, searchHistory, searchWords } from '../../../../main/core/executions/history-search.ts';

function record(executionId: string, extra: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    accountId: 'local',
    executionId,
    queryId: 7,
    parameters: {},
    state: 'QUERY_STATE_COMPLETED',
    isFinished: true,
    submittedAt: '2026-03-01T10:00:00.000Z',
    endedAt: '2026-03-01T10:00:02.500Z',
    error: null,
    totalRowCount: 10,
    ...extra,
  };
}

const names: Record<string, string> = { local: 'Local service', work: 'Dune at work' };
const search = (text: string, records: ExecutionRecord[], more: { accountId?: string; limit?: number } = {}) =>
  searchHistory(records, { words: searchWords(text), limit: 50, accountName: (id) => names[id] ?? id, ...more });

describe('the history search', () => {
  const records = [
    record('E3', {
      accountId: 'work',
      queryName: 'Token transfers',
      querySql: 'select * from erc20_ethereum.evt_Transfer',
      parameters: { chain: 'base' },
    }),
    record('E2', {
      queryId: 0,
      sql: "select 'needle' as what",
      state: 'QUERY_STATE_FAILED',
      error: { type: 'x', message: 'Syntax error at line 1' },
    }),
    record('E1', { queryName: 'Daily volume', querySql: 'select day from trades', submittedAt: '2026-02-27T23:00:00.000Z' }),
  ];

  it('finds runs holding every word, in any case, in their name, text, values, state, account, id and day', () => {
    const ids = (text: string, more = {}) => search(text, records, more).entries.map((e) => e.executionId);
    expect(ids('TRANSFER')).toEqual(['E3']);
    expect(ids('chain=base dune')).toEqual(['E3']);
    expect(ids('needle failed')).toEqual(['E2']);
    expect(ids('syntax')).toEqual(['E2']);
    expect(ids('completed')).toEqual(['E3', 'E1']);
    expect(ids('2026-02-27')).toEqual(['E1']);
    expect(ids('e1')).toEqual(['E1']);
    expect(ids('local select')).toEqual(['E2', 'E1']);
    expect(ids('needle transfer')).toEqual([]);
    expect(ids('', { accountId: 'work' })).toEqual(['E3']);
  });

  it('counts every match and answers the first of them, newest first', () => {
    const many = Array.from({ length: 30 }, (_, i) => record(`R${30 - i}`, { sql: `select ${30 - i}` }));
    const found = search('select', many, { limit: 5 });
    expect(found.total).toBe(30);
    expect(found.entries.map((e) => e.executionId)).toEqual(['R30', 'R29', 'R28', 'R27', 'R26']);
  });

  it('says what ran, how long it took and its datapoints', () => {
    const result = {
      columnNames: ['a', 'b', 'c'],
      columnTypes: ['integer', 'varchar', 'double'],
      totalRowCount: 10,
      totalBytes: 1,
      executionTimeMillis: 5,
    };
    expect(historyEntry(record('E1', { querySql: 'select 1', queryName: 'Q', result }), 'Local')).toMatchObject({
      sql: 'select 1',
      isEdited: false,
      durationMs: 2_500,
      rows: 10,
      datapoints: 30,
    });
    expect(historyEntry(record('E2', { sql: 'select 2', result: { ...result, datapointCount: 7 } }), 'Local')).toMatchObject({
      sql: 'select 2',
      isEdited: true,
      datapoints: 7,
    });
    expect(historyEntry(record('E3', { endedAt: null, isFinished: false }), 'Local')).toMatchObject({
      durationMs: null,
      datapoints: null,
      sql: '',
    });
  });
});

describe('the history panel’s words made as it opens', () => {
  it('answers other work between its turns, and searches find the same runs after', async () => {
    const many = Array.from({ length: 12_000 }, (_, i) => record(`E${i}`, { parameters: { chain: i % 3 === 0 ? 'base' : 'ethereum' } }));
    const before = search('chain=base', many).total;
    let answeredBetween = false;
    const preparing = prepareHistorySearch(many).then(() => answeredBetween);
    setImmediate(() => (answeredBetween = true));
    expect(await preparing).toBe(true);
    expect(search('chain=base', many).total).toBe(before);
    expect(before).toBe(4_000);
  });
});
