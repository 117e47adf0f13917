import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FREE_KEY, startWorkspaceHarness, until, type WorkspaceHarness } from './workspace-harness.ts';

// The local-first workspace in core, against a real service that goes away and comes back, and
// cores started again on the same data folder (app restarts).

let harness: WorkspaceHarness;
beforeEach(async () => {
  harness = await startWorkspaceHarness();
});
afterEach(() => harness.close());

async function createQuery(name: string, sql: string): Promise<number> {
  const created = await harness.http('POST', '/query', { name, query_sql: sql });
  expect(created.status).toBe(200);
  return created.body.query_id as number;
}

describe('the local workspace', () => {
  it('answers from disk at once, then refreshes: names changed elsewhere arrive, and what only a detail says comes with the details fetched for search', async () => {
    const first = await createQuery('First', 'SELECT 1 AS one');
    const second = await createQuery('Second', 'SELECT 2 AS two');
    const { call, accountId, changes } = await harness.startCore();

    const opened = await call('workspace:open', { accountId });
    expect(opened).toMatchObject({ ok: true, data: { queries: [], queriesFetchedAt: null } });
    // the list comes first (still checking), then the rest of the refresh
    await until(() => changes.find((s) => s.queries.length === 2), 'the list');
    const refreshed = await until(() => changes.find((s) => s.queries.length === 2 && s.sync.status === 'online'), 'the first refresh');
    expect(refreshed.queries.map((q) => q.name)).toEqual(['First', 'Second']);
    expect(refreshed.sync.status).toBe('online');

    // Elsewhere: a rename and an archive.
    expect((await harness.http('PATCH', `/query/${first}`, { name: 'First, renamed' })).status).toBe(200);
    expect((await harness.http('POST', `/query/${second}/archive`)).status).toBe(200);
    expect(await call('workspace:refresh', { accountId })).toMatchObject({ ok: true, data: { status: 'online' } });
    const after = await call('workspace:open', { accountId });
    if (!after.ok) throw new Error(after.error.message);
    expect(after.data.queries.find((q) => q.id === first)).toMatchObject({ name: 'First, renamed', sql: 'SELECT 1 AS one' });
    expect(after.data.queries.find((q) => q.id === second)).toMatchObject({ isArchived: true, sql: 'SELECT 2 AS two' });
    // and each detail is on disk, to be opened offline
    expect(await call('workspace:query', { accountId, queryId: second })).toMatchObject({
      ok: true,
      data: { query: { isArchived: true } },
    });
  });

  it('keeps the list, the SQL and a cached result through a restart without the service, and says it is offline', async () => {
    const queryId = await createQuery('Cached', 'SELECT range AS n FROM range(500)');
    const online = await harness.startCore();
    await online.call('workspace:open', { accountId: online.accountId });
    await until(() => online.changes.find((s) => s.queries.length === 1), 'the list');
    expect(await online.call('queries:get', { accountId: online.accountId, queryId })).toMatchObject({ ok: true });
    const run = await online.call('executions:run', { accountId: online.accountId, queryId });
    if (!run.ok) throw new Error(run.error.message);
    const executionId = run.data.executionId;
    await until(async () => {
      const state = await online.call('executions:get', { accountId: online.accountId, executionId });
      return state.ok && state.data.isFinished;
    }, 'the run to finish');
    expect(await online.call('results:cache', { accountId: online.accountId, executionId })).toMatchObject({ ok: true });
    await until(async () => {
      const status = await online.call('results:cacheStatus', { accountId: online.accountId, executionId });
      return status.ok && status.data.state === 'cached';
    }, 'the result to be cached');
    await online.core.dispose();

    await harness.stopService();
    const offline = await harness.startCore();
    const { call, accountId } = offline;
    const snapshot = await call('workspace:open', { accountId });
    expect(snapshot.ok && snapshot.data.queries.map((q) => q.name)).toEqual(['Cached']);
    const sync = await until(() => offline.syncs.find((s) => s.status === 'offline'), 'the offline state');
    expect(sync.reason).toBeTruthy();
    expect(Date.parse(sync.nextRetryAt!)).toBeGreaterThan(Date.parse(sync.offlineSince!));

    expect(await call('workspace:query', { accountId, queryId })).toMatchObject({
      ok: true,
      data: { query: { sql: 'SELECT range AS n FROM range(500)' } },
    });
    expect(await call('executions:get', { accountId, executionId })).toMatchObject({
      ok: true,
      data: { state: 'QUERY_STATE_COMPLETED', result: { totalRowCount: 500 } },
    });
    expect(await call('executions:latest', { accountId, queryId })).toMatchObject({
      ok: true,
      data: { source: 'local', isCached: true, execution: { executionId } },
    });
    const listed = await call('executions:list', { accountId });
    expect(listed.ok && listed.data.executions.map((e) => [e.executionId, e.isCached])).toEqual([[executionId, true]]);
    const rows = await call('results:getRows', { accountId, executionId, startRow: 490, endRow: 500, sortBy: 'n desc' });
    expect(rows.ok && rows.data.rows.map((r) => r[0])).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

    // the cached run opens from disk, not from the service: one that no longer knows it (its data
    // folder gone) changes nothing
    rmSync(join(harness.dir, 'service'), { recursive: true, force: true });
    await harness.startServiceAgain();
    expect(await call('executions:get', { accountId, executionId })).toMatchObject({
      ok: true,
      data: { state: 'QUERY_STATE_COMPLETED', result: { totalRowCount: 500 } },
    });
  });

  it('keeps a save made offline through a restart and sends it when the service answers again', async () => {
    const queryId = await createQuery('Edited offline', 'SELECT 1 AS before');
    const first = await harness.startCore();
    await first.call('workspace:open', { accountId: first.accountId });
    const detail = await first.call('queries:get', { accountId: first.accountId, queryId });
    if (!detail.ok) throw new Error(detail.error.message);

    await harness.stopService();
    const saved = await first.call('queries:save', {
      accountId: first.accountId,
      queryId,
      baseVersion: detail.data.version,
      edit: { sql: 'SELECT 2 AS after' },
    });
    expect(saved).toMatchObject({ ok: true, data: { status: 'pending', pending: { state: 'waiting', baseVersion: detail.data.version } } });
    // A second save offline joins the first: one edit, the first base version.
    await first.call('queries:save', {
      accountId: first.accountId,
      queryId,
      baseVersion: detail.data.version,
      edit: { name: 'Edited offline, renamed' },
    });
    await first.core.dispose();

    const second = await harness.startCore();
    const reopened = await second.call('workspace:open', { accountId: second.accountId });
    expect(reopened.ok && reopened.data.pending).toMatchObject([
      { queryId, edit: { sql: 'SELECT 2 AS after', name: 'Edited offline, renamed' }, state: 'waiting' },
    ]);
    await until(() => second.syncs.find((s) => s.status === 'offline'), 'the offline state');

    await harness.startServiceAgain();
    expect(await second.call('workspace:network', { online: true })).toMatchObject({ ok: true });
    await until(() => second.changes.find((s) => s.pending.length === 0 && s.sync.status === 'online'), 'the edit to be sent');
    const onService = await harness.http('GET', `/query/${queryId}`);
    expect(onService.body).toMatchObject({ query_sql: 'SELECT 2 AS after', name: 'Edited offline, renamed' });
  });

  it('holds a save over a version moved elsewhere as a conflict, and resolves it as mine, theirs or a copy', async () => {
    const queryId = await createQuery('Shared', 'SELECT 1 AS original');
    const { call, accountId } = await harness.startCore();
    const detail = await call('queries:get', { accountId, queryId });
    if (!detail.ok) throw new Error(detail.error.message);
    const base = detail.data.version;
    expect((await harness.http('PATCH', `/query/${queryId}`, { query_sql: 'SELECT 2 AS theirs' })).status).toBe(200);

    const conflict = await call('queries:save', { accountId, queryId, baseVersion: base, edit: { sql: 'SELECT 3 AS mine' } });
    expect(conflict).toMatchObject({
      ok: true,
      data: { status: 'conflict', pending: { state: 'conflict', theirs: { sql: 'SELECT 2 AS theirs' } } },
    });
    expect((await harness.http('GET', `/query/${queryId}`)).body.query_sql).toBe('SELECT 2 AS theirs');

    expect(await call('queries:resolvePending', { accountId, queryId, choice: 'copy' })).toMatchObject({
      ok: true,
      data: { name: 'Shared (my copy)', sql: 'SELECT 3 AS mine' },
    });
    expect((await harness.http('GET', `/query/${queryId}`)).body.query_sql).toBe('SELECT 2 AS theirs');
    const list = await call('workspace:open', { accountId });
    expect(list.ok && list.data.pending).toEqual([]);
    expect(list.ok && list.data.queries.some((q) => q.name === 'Shared (my copy)')).toBe(true);

    // Again, and this time mine wins; then again, and theirs does.
    await call('queries:save', { accountId, queryId, baseVersion: base, edit: { sql: 'SELECT 4 AS mine' } });
    expect(await call('queries:resolvePending', { accountId, queryId, choice: 'mine' })).toMatchObject({
      ok: true,
      data: { sql: 'SELECT 4 AS mine' },
    });
    expect((await harness.http('GET', `/query/${queryId}`)).body.query_sql).toBe('SELECT 4 AS mine');
    await call('queries:save', { accountId, queryId, baseVersion: base, edit: { sql: 'SELECT 5 AS dropped' } });
    expect(await call('queries:resolvePending', { accountId, queryId, choice: 'theirs' })).toMatchObject({
      ok: true,
      data: { sql: 'SELECT 4 AS mine' },
    });
    expect(await call('queries:resolvePending', { accountId, queryId, choice: 'theirs' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it("shows the service's latest result of a query this app never ran, and caches it", async () => {
    const queryId = await createQuery('Run elsewhere', 'SELECT 42 AS answer');
    const started = await harness.http('POST', `/query/${queryId}/execute`, {});
    const executionId = started.body.execution_id as string;
    await until(
      async () => (await harness.http('GET', `/execution/${executionId}/status`)).body.is_execution_finished,
      'the run to finish',
    );
    const { call, accountId } = await harness.startCore();
    const latest = await call('executions:latest', { accountId, queryId });
    expect(latest).toMatchObject({
      ok: true,
      data: {
        source: 'service',
        parameters: null,
        execution: { executionId, state: 'QUERY_STATE_COMPLETED', result: { totalRowCount: 1 } },
      },
    });
    await until(async () => {
      const status = await call('results:cacheStatus', { accountId, executionId });
      return status.ok && status.data.state === 'cached';
    }, 'the latest result to be cached in the background');
  });
});

describe('a new query made offline', () => {
  it('is created when the service answers again', async () => {
    const { call, accountId, changes, syncs } = await harness.startCore();
    await call('workspace:open', { accountId });
    await until(() => syncs.find((s) => s.status === 'online'), 'the first refresh');
    await harness.stopService();
    const keep = (newId: string, name: string, sql: string) =>
      call('workspace:saveDraft', {
        accountId,
        draft: { key: { newId }, name, sql, parameterValues: {}, baseVersion: null, createWhenOnline: true },
      });
    expect(await keep('first-new', 'Made offline', 'SELECT 7 AS seven')).toMatchObject({ ok: true });
    await until(() => syncs.find((s) => s.status === 'offline'), 'the offline state');

    await harness.startServiceAgain();
    await call('workspace:network', { online: true });
    const done = await until(
      () => changes.find((s) => s.sync.status === 'online' && s.queries.some((q) => q.name === 'Made offline')),
      'the query to be created',
    );
    expect(done.drafts.map((d) => d.key)).not.toContainEqual({ newId: 'first-new' });
    const listed = (await harness.http('GET', '/queries?limit=100')).body.queries as { name: string }[];
    expect(listed.map((q) => q.name)).toContain('Made offline');
  });

  it("stays, with the service's reason, when the service refuses to create it", async () => {
    const { call, changes } = await harness.startCore();
    const added = await call('accounts:add', { label: 'Free', baseUrl: harness.serviceUrl(), apiKey: FREE_KEY });
    if (!added.ok) throw new Error(added.error.message);
    const accountId = added.data.id;
    await call('workspace:open', { accountId });
    const draft = {
      key: { newId: 'refused-new' },
      name: 'Not on this plan',
      sql: 'SELECT 1',
      parameterValues: {},
      baseVersion: null,
      createWhenOnline: true,
    };
    expect(await call('workspace:saveDraft', { accountId, draft })).toMatchObject({ ok: true });
    const after = await until(() => changes.find((s) => s.accountId === accountId && s.drafts.some((d) => d.refusal)), 'the refusal');
    expect(after.drafts).toEqual([
      expect.objectContaining({ name: 'Not on this plan', createWhenOnline: false, refusal: expect.stringContaining('free plan') }),
    ]);
  });
});
