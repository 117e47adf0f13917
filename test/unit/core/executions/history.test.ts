import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

function loggedIds(): string[] {
  const lines = readFileSync(join(dir, 'runs.jsonl'), 'utf8').split('\n').filter(Boolean);
  return lines.map((line) => (JSON.parse(line) as { executionId: string }).executionId);
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

  it('lists newest first, keeps every run, and forgets a removed account', () => {
    const history = openExecutionRecords(dir, clock);
    for (let i = 1; i <= 1_205; i += 1) history.started('a', `E${i}`, 7, {});
    history.started('b', 'B1', 8, {});
    expect(history.list('a', 3).map((r) => r.executionId)).toEqual(['E1205', 'E1204', 'E1203']);
    expect(openExecutionRecords(dir).list('a', 5_000)).toHaveLength(1_205);
    history.forgetAccount('a');
    expect(history.list('a', 10)).toEqual([]);
    expect(loggedIds()).toEqual(['B1']);
  });

  it('writes each change as it happens, so a run survives a kill -9 of the app', () => {
    const module = join(import.meta.dirname, '../../../../main/core/executions/history.ts');
    const script = `const { openExecutionRecords } = await import(${JSON.stringify(module)});
      const history = openExecutionRecords(${JSON.stringify(dir)});
      history.started('a', 'KILLED', 7, { n: '1' }, { queryName: 'Daily', querySql: 'select 1' });
      process.kill(process.pid, 'SIGKILL');`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script]);
    expect(child.signal).toBe('SIGKILL');
    expect(openExecutionRecords(dir).list('a', 10)).toMatchObject([{ executionId: 'KILLED', queryName: 'Daily', querySql: 'select 1' }]);
  });

  it('skips and counts lines it cannot read, and appends whole lines after a line cut short', () => {
    const history = openExecutionRecords(dir, clock);
    history.started('a', 'E1', 7, {});
    appendFileSync(join(dir, 'runs.jsonl'), 'not json\n{"accountId":"a"}\n{"accountId":"a","executionId":"CUT');
    const reopened = openExecutionRecords(dir, clock);
    expect(reopened.skipped).toBe(3);
    reopened.started('a', 'E2', 7, {});
    const again = openExecutionRecords(dir, clock);
    expect(again.list('a', 10).map((r) => r.executionId)).toEqual(['E2', 'E1']);
    expect(again.skipped).toBe(3);
  });

  it('moves the runs of the earlier JSON file into the log, oldest first', () => {
    const record = (executionId: string) => ({
      accountId: 'a',
      executionId,
      queryId: 7,
      parameters: {},
      state: 'QUERY_STATE_COMPLETED',
      isFinished: true,
      submittedAt: '2026-03-01T10:00:00.000Z',
      endedAt: null,
      error: null,
      totalRowCount: 1,
    });
    writeFileSync(join(dir, 'executions.json'), JSON.stringify({ executions: [record('NEWER'), record('OLDER')] }));
    const history = openExecutionRecords(dir, clock);
    expect(history.list('a', 10).map((r) => r.executionId)).toEqual(['NEWER', 'OLDER']);
    expect(existsSync(join(dir, 'executions.json'))).toBe(false);
    expect(loggedIds()).toEqual(['OLDER', 'NEWER']);
  });

  it('writes the log again without its stale lines once they outnumber the runs', () => {
    const history = openExecutionRecords(dir, clock);
    history.started('a', 'E1', 7, {});
    for (let i = 0; i < 1_500; i += 1)
      history.observe(update('E1', 'QUERY_STATE_EXECUTING', false, { queuePosition: null, elapsedMs: i, startedAt: `t${i}` }));
    expect(loggedIds().length).toBeLessThan(1_100);
    expect(openExecutionRecords(dir).list('a', 10)).toMatchObject([{ executionId: 'E1', startedAt: 't1499' }]);
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
