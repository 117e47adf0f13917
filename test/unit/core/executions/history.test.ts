import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionUpdate } from '../../../../main/contract/index.ts';
import { openExecutionRecords } from '../../../../main/core/executions/history.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-history-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const clock = () => new Date('2026-03-01T10:00:00.000Z');

function update(executionId: string, state: string, isFinished: boolean, extra: Partial<ExecutionUpdate> = {}): ExecutionUpdate {
  return {
    accountId: 'a',
    executionId,
    queryId: 7,
    state,
    isFinished,
    queuePosition: null,
    submittedAt: null,
    startedAt: null,
    endedAt: null,
    expiresAt: null,
    elapsedMs: 0,
    error: null,
    result: null,
    ...extra,
  };
}

describe('the execution history', () => {
  it('answers the record once, on the update that ends it, and keeps it in its file', () => {
    const history = openExecutionRecords(dir, clock);
    history.started('a', 'E1', 7, { n: '5' });
    expect(history.observe(update('E1', 'QUERY_STATE_EXECUTING', false))).toBeNull();
    const result = { columnNames: [], columnTypes: [], totalRowCount: 12, totalBytes: 1, executionTimeMillis: null };
    const ended = history.observe(update('E1', 'QUERY_STATE_COMPLETED', true, { endedAt: '2026-03-01T10:00:05Z', result }));
    expect(ended).toEqual({
      accountId: 'a',
      executionId: 'E1',
      queryId: 7,
      parameters: { n: '5' },
      state: 'QUERY_STATE_COMPLETED',
      isFinished: true,
      submittedAt: '2026-03-01T10:00:00.000Z',
      endedAt: '2026-03-01T10:00:05Z',
      error: null,
      totalRowCount: 12,
      // What is needed to show it again without the service.
      startedAt: null,
      expiresAt: null,
      result,
    });
    expect(history.observe(update('E1', 'QUERY_STATE_COMPLETED', true, { result }))).toBeNull();
    expect(history.observe(update('NOT-MINE', 'QUERY_STATE_COMPLETED', true))).toBeNull();
    expect(openExecutionRecords(dir).list('a', 10)).toEqual([ended]);
  });

  it('lists newest first, keeps the newest 200 per account, and forgets a removed account', () => {
    const history = openExecutionRecords(dir, clock);
    for (let i = 1; i <= 205; i += 1) history.started('a', `E${i}`, 7, {});
    history.started('b', 'B1', 8, {});
    expect(history.list('a', 3).map((r) => r.executionId)).toEqual(['E205', 'E204', 'E203']);
    expect(history.list('a', 500)).toHaveLength(200);
    history.forgetAccount('a');
    expect(history.list('a', 10)).toEqual([]);
    const file = JSON.parse(readFileSync(join(dir, 'executions.json'), 'utf8')) as { executions: { executionId: string }[] };
    expect(file.executions.map((r) => r.executionId)).toEqual(['B1']);
  });

  it('gives back for watching again only the runs still going and not abandoned', () => {
    const history = openExecutionRecords(dir, clock);
    for (const id of ['RUNNING', 'DONE', 'GONE']) history.started('a', id, 7, {});
    history.observe(update('DONE', 'QUERY_STATE_FAILED', true));
    history.observe(update('GONE', 'QUERY_STATE_EXECUTING', false, { error: { type: 'watch_not_found', message: 'Stopped watching' } }));
    expect(
      openExecutionRecords(dir)
        .unfinished()
        .map((r) => r.executionId),
    ).toEqual(['RUNNING']);
  });
});
