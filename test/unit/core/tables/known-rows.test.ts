import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KnownRows } from '../../../../main/core/tables/known-rows.ts';

const dir = mkdtempSync(join(tmpdir(), 'querydesk-known-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the row counts of uploaded tables', () => {
  const path = join(dir, 'table-rows.json');

  it('are kept across a restart, for the table as it was first listed after the upload', () => {
    const rows = new KnownRows(path);
    rows.remember('local', 'dune.demo.dataset_a', 12);
    expect(rows.rowsOf('local', 'dune.demo.dataset_a', '2026-01-01T00:00:00.000Z')).toBe(12);
    expect(rows.rowsOf('other', 'dune.demo.dataset_a', '2026-01-01T00:00:00.000Z')).toBeNull();
    expect(new KnownRows(path).rowsOf('local', 'dune.demo.dataset_a', '2026-01-01T00:00:00.000Z')).toBe(12);
  });

  it('are forgotten once the table changed elsewhere, or was deleted', () => {
    const rows = new KnownRows(path);
    expect(rows.rowsOf('local', 'dune.demo.dataset_a', '2026-02-02T00:00:00.000Z')).toBeNull();
    expect(rows.rowsOf('local', 'dune.demo.dataset_a', '2026-01-01T00:00:00.000Z')).toBeNull();
    rows.remember('local', 'dune.demo.dataset_b', 3);
    rows.forget('local', 'dune.demo.dataset_b');
    expect(new KnownRows(path).rowsOf('local', 'dune.demo.dataset_b', null)).toBeNull();
  });
});
