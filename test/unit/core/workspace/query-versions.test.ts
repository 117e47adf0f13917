import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueryDetail } from '../../../../main/contract/index.ts';
import { QueryVersions } from '../../../../main/core/workspace/query-versions.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-versions-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function query(version: number, sql: string, extra: Partial<QueryDetail> = {}): QueryDetail {
  return {
    id: 7,
    name: 'Daily volume',
    description: '',
    owner: 'alice',
    tags: [],
    version,
    sql,
    parameters: [{ key: 'days', type: 'number', value: '7' }],
    isPrivate: false,
    isArchived: false,
    ...extra,
  };
}

const lines = () => readFileSync(join(dir, '7.jsonl'), 'utf8').split('\n').filter(Boolean);

describe('the versions of a query', () => {
  it('keeps each version with its SQL and parameters, newest first, across a reopen', () => {
    const versions = new QueryVersions(dir);
    versions.record(query(1, 'SELECT 1'), '2026-03-01T10:00:00.000Z');
    versions.record(query(2, 'SELECT 2', { parameters: [] }), '2026-03-01T11:00:00.000Z');
    const reopened = new QueryVersions(dir).list(7);
    expect(reopened.skipped).toBe(0);
    expect(reopened.versions.map((v) => [v.version, v.sql, v.parameters.length, v.recordedAt])).toEqual([
      [2, 'SELECT 2', 0, '2026-03-01T11:00:00.000Z'],
      [1, 'SELECT 1', 1, '2026-03-01T10:00:00.000Z'],
    ]);
    expect(new QueryVersions(dir).list(8).versions).toEqual([]);
  });

  it('writes a version read again unchanged only once, even after a reopen', () => {
    new QueryVersions(dir).record(query(3, 'SELECT 3'), '2026-03-01T10:00:00.000Z');
    const versions = new QueryVersions(dir);
    versions.record(query(3, 'SELECT 3'), '2026-03-02T10:00:00.000Z');
    versions.record(query(3, 'SELECT 3'), '2026-03-03T10:00:00.000Z');
    expect(lines()).toHaveLength(1);
    expect(versions.list(7).versions[0]?.recordedAt).toBe('2026-03-01T10:00:00.000Z');
  });

  it('takes the text the service answers last for a version it answered differently before', () => {
    const versions = new QueryVersions(dir);
    versions.record(query(4, 'SELECT old'), '2026-03-01T10:00:00.000Z');
    versions.record(query(4, 'SELECT new'), '2026-03-01T11:00:00.000Z');
    expect(versions.list(7).versions.map((v) => v.sql)).toEqual(['SELECT new']);
  });

  it('has a version on disk as soon as it is recorded: a kill -9 right after loses nothing', () => {
    const module = join(import.meta.dirname, '../../../../main/core/workspace/query-versions.ts');
    const script = `const { QueryVersions } = await import(${JSON.stringify(module)});
      new QueryVersions(${JSON.stringify(dir)}).record(${JSON.stringify(query(5, 'SELECT 5'))}, '2026-03-01T10:00:00.000Z');
      process.kill(process.pid, 'SIGKILL');`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script]);
    expect(child.signal).toBe('SIGKILL');
    expect(new QueryVersions(dir).list(7).versions.map((v) => [v.version, v.sql])).toEqual([[5, 'SELECT 5']]);
  });

  it('skips and counts a line that cannot be read, and goes on appending after a line cut short', () => {
    const versions = new QueryVersions(dir);
    versions.record(query(1, 'SELECT 1'), '2026-03-01T10:00:00.000Z');
    appendFileSync(join(dir, '7.jsonl'), 'not json\n{"version":2,"sql":');
    const reopened = new QueryVersions(dir);
    reopened.record(query(2, 'SELECT 2'), '2026-03-01T11:00:00.000Z');
    const { versions: kept, skipped } = reopened.list(7);
    expect(skipped).toBe(2);
    expect(kept.map((v) => v.version)).toEqual([2, 1]);
  });
});
