import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/core/logging/logger.ts';
import { ALICE_KEY, startWorkspaceHarness, until, type WorkspaceHarness } from '../workspace/workspace-harness.ts';

// The day's log, read as a person reading a bug report would: the service going away and coming
// back, an edit that met a newer version and the choice made, with no key in any line.

let harness: WorkspaceHarness;
let logsDir: string;
beforeAll(async () => {
  harness = await startWorkspaceHarness();
  logsDir = mkdtempSync(join(tmpdir(), 'querydesk-activity-logs-'));
});
afterAll(async () => {
  await harness.close();
  rmSync(logsDir, { recursive: true, force: true });
});

function logLines(): string[] {
  return readdirSync(logsDir)
    .flatMap((name) => readFileSync(join(logsDir, name), 'utf8').split('\n'))
    .filter((line) => line !== '');
}

describe('the log of a core', () => {
  it('holds each offline period with its reason, a conflict and the choice made, without a key', async () => {
    const created = await harness.http('POST', '/query', { name: 'Shared', query_sql: 'SELECT 1 AS original' });
    const queryId = created.body.query_id as number;
    const logger = createLogger({ dir: logsDir });
    const { call, accountId, syncs } = await harness.startCore({ logger });
    await call('workspace:open', { accountId });
    await until(() => syncs.find((s) => s.status === 'online'), 'the first refresh');

    await harness.stopService();
    await call('workspace:refresh', { accountId });
    await until(() => syncs.find((s) => s.status === 'offline'), 'the offline state');
    await harness.startServiceAgain();
    expect(await call('workspace:refresh', { accountId })).toMatchObject({ ok: true, data: { status: 'online' } });

    const detail = await call('queries:get', { accountId, queryId });
    if (!detail.ok) throw new Error(detail.error.message);
    expect((await harness.http('PATCH', `/query/${queryId}`, { query_sql: 'SELECT 2 AS theirs' })).status).toBe(200);
    const saved = await call('queries:save', { accountId, queryId, baseVersion: detail.data.version, edit: { sql: 'SELECT 3 AS mine' } });
    expect(saved).toMatchObject({ ok: true, data: { status: 'conflict' } });
    expect(await call('queries:resolvePending', { accountId, queryId, choice: 'copy' })).toMatchObject({ ok: true });
    // a key in a line written later, as a failing request might print it, is masked too
    logger.warn(`a request failed: Headers { 'x-dune-api-key' => '${ALICE_KEY}', authorization => 'Bearer ${ALICE_KEY}' }`);

    const lines = logLines();
    const offline = lines.findIndex((line) => / WARN Remote: offline since \S+: \S/.test(line));
    const back = lines.findIndex((line) => / INFO Remote: online again after \d+ s \(offline since /.test(line));
    expect(offline).toBeGreaterThanOrEqual(0);
    expect(back).toBeGreaterThan(offline);
    // one line at each end of the period, however many retries it took
    expect(lines.filter((line) => line.includes('Remote: offline since'))).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `WARN Remote: query #${queryId} changed on the service since version ${detail.data.version} \\(now version \\d+\\); the edit waits for a choice`,
        ),
      ),
    );
    expect(lines).toContainEqual(expect.stringContaining(`INFO Remote: query #${queryId}: the user copied mine to a new query`));

    const text = lines.join('\n');
    expect(text).not.toContain(ALICE_KEY);
    for (const line of lines.filter((l) => /x-dune-api-key|authorization/i.test(l))) expect(line).toContain('[redacted]');
  });
});
