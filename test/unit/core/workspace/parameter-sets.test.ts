import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ParameterSets } from '../../../../main/core/workspace/parameter-sets.ts';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-paramsets-'));
  path = join(dir, 'parameter-sets.jsonl');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const clock = () => new Date('2026-03-01T10:00:00.000Z');
const names = (sets: ParameterSets, queryId = 7) => sets.list(queryId).sets.map((set) => set.name);

describe('parameter sets', () => {
  it('keeps sets per query across a reopen, a save of the same name replacing the set', () => {
    const sets = new ParameterSets(path, clock);
    sets.save(7, 'last week, ethereum', { days: '7', chain: 'ethereum' });
    sets.save(7, 'last month', { days: '30', chain: 'ethereum' });
    sets.save(8, 'other query', { n: '1' });
    sets.save(7, 'last month', { days: '31', chain: 'ethereum' });
    const reopened = new ParameterSets(path, clock);
    expect(reopened.list(7)).toEqual({
      sets: [
        { name: 'last week, ethereum', values: { days: '7', chain: 'ethereum' }, savedAt: clock().toISOString() },
        { name: 'last month', values: { days: '31', chain: 'ethereum' }, savedAt: clock().toISOString() },
      ],
      skipped: 0,
    });
    expect(names(reopened, 8)).toEqual(['other query']);
  });

  it('renames and deletes, and a reopen sees both', () => {
    const sets = new ParameterSets(path, clock);
    sets.save(7, 'a', { days: '1' });
    sets.save(7, 'b', { days: '2' });
    expect(sets.rename(7, 'a', 'first').ok).toBe(true);
    expect(sets.delete(7, 'b').ok).toBe(true);
    const reopened = new ParameterSets(path, clock);
    expect(reopened.list(7).sets).toEqual([{ name: 'first', values: { days: '1' }, savedAt: clock().toISOString() }]);
  });

  it('refuses to rename onto another set or to touch a set that is not there, saying which', () => {
    const sets = new ParameterSets(path, clock);
    sets.save(7, 'a', { days: '1' });
    sets.save(7, 'b', { days: '2' });
    const clash = sets.rename(7, 'a', 'b');
    expect(clash.ok ? null : clash.error.message).toMatch(/“b” exists already/);
    const gone = sets.delete(7, 'c');
    expect(gone.ok ? null : gone.error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/“c”/) });
    expect(names(sets)).toEqual(['a', 'b']);
  });

  it('skips and counts a line that cannot be read', () => {
    new ParameterSets(path, clock).save(7, 'a', { days: '1' });
    appendFileSync(path, '{"queryId":7,"name":"broken"\n');
    const reopened = new ParameterSets(path, clock);
    expect(reopened.list(7).skipped).toBe(1);
    expect(names(reopened)).toEqual(['a']);
  });

  it('writes the log again without its stale lines once they pile up', () => {
    const sets = new ParameterSets(path, clock);
    for (let i = 0; i < 150; i++) {
      sets.save(7, 'kept', { n: String(i) });
      sets.rename(7, 'kept', 'moved');
      sets.rename(7, 'moved', 'kept');
    }
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).length).toBeLessThan(250);
    expect(new ParameterSets(path, clock).list(7).sets).toEqual([{ name: 'kept', values: { n: '149' }, savedAt: clock().toISOString() }]);
  });
});
