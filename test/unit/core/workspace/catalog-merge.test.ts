import { describe, expect, it } from 'vitest';
import type { LocalQuery } from '../../../../main/contract/index.ts';
import type { QueryListItem } from '../../../../main/core/service-client/index.ts';
import { mergeCatalog } from '../../../../main/core/workspace/catalog-merge.ts';

const item = (id: number, name: string): QueryListItem => ({
  id,
  name,
  description: '',
  owner: 'alice',
  tags: [],
  createdAt: null,
  updatedAt: null,
});
const local = (id: number, name: string, extra: Partial<LocalQuery> = {}): LocalQuery => ({
  ...item(id, name),
  isPrivate: null,
  isArchived: null,
  sql: null,
  isGone: false,
  ...extra,
});

describe('merging the queries list after a refresh', () => {
  it("takes the service's names and order, and keeps what only a detail said", () => {
    const before = [local(1, 'One', { isPrivate: true, isArchived: false }), local(2, 'Two')];
    expect(mergeCatalog(before, [item(2, 'Two, renamed'), item(1, 'One')], new Set())).toEqual([
      local(2, 'Two, renamed'),
      local(1, 'One', { isPrivate: true, isArchived: false }),
    ]);
  });

  it('drops a query no longer listed, unless a draft or an edit refers to it: then it stays, marked gone', () => {
    const before = [local(1, 'Kept'), local(2, 'Dropped'), local(3, 'Listed')];
    expect(mergeCatalog(before, [item(3, 'Listed')], new Set([1]))).toEqual([local(3, 'Listed'), local(1, 'Kept', { isGone: true })]);
  });

  it('keeps the SQL fetched for search while the query is unchanged, and forgets it once it changed', () => {
    const at = (updatedAt: string) => ({ updatedAt });
    const before = [
      local(1, 'Same', { sql: 'select 1', ...at('2026-01-01') }),
      local(2, 'Edited', { sql: 'select 2', ...at('2026-01-01') }),
    ];
    const listed = [
      { ...item(1, 'Same'), ...at('2026-01-01') },
      { ...item(2, 'Edited'), ...at('2026-02-02') },
    ];
    expect(mergeCatalog(before, listed, new Set()).map((q) => q.sql)).toEqual(['select 1', null]);
  });

  it('adds what is new', () => {
    expect(mergeCatalog([], [item(9, 'New')], new Set())).toEqual([local(9, 'New')]);
  });
});
