import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/core/logging/logger.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';

// An export refused before it started is in the day's log as well as the ones that ran: the
// request's fault, an unknown result, a file never chosen; keys masked as in every line.

let harness: Harness;
let logsDir: string;
let call: ReturnType<typeof caller>;
beforeAll(async () => {
  harness = await startHarness();
  logsDir = mkdtempSync(join(tmpdir(), 'querydesk-export-logs-'));
  const logger = createLogger({ dir: logsDir });
  const paths = { dataDir: harness.dir, logsDir, settingsFile: join(harness.coreDir, 'settings.json') };
  // the user closes every save dialog
  const exportDestinations = { choose: async () => null };
  call = caller(await harness.startCore({ keyVault: new KeyVault(memoryKeychain()), logger, paths, exportDestinations }));
});
afterAll(async () => {
  await harness.close();
  rmSync(logsDir, { recursive: true, force: true });
});

const logLines = () =>
  readdirSync(logsDir)
    .flatMap((name) => readFileSync(join(logsDir, name), 'utf8').split('\n'))
    .filter((line) => line.includes('export'));

async function finishedRun(): Promise<string> {
  const run = await call('executions:runSql', { accountId: 'local', queryId: null, sql: 'SELECT 1 AS one' });
  if (!run.ok) throw new Error(run.error.message);
  await harness.finishedUpdate(run.data.executionId);
  return run.data.executionId;
}

describe('the log of exports that did not start', () => {
  it('holds an unknown result, an invalid request and a declined file, each with its reason', async () => {
    const unknown = await call('results:export', { accountId: 'local', executionId: '01NOSUCHRESULT0000000000000', scope: 'all' });
    expect(unknown.ok).toBe(false);
    // the dispatcher refuses this one before any handler sees it
    const invalid = await call('results:export', { accountId: 'local', executionId: 'E1', format: 'xlsx' } as never);
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const executionId = await finishedRun();
    expect(await call('results:export', { accountId: 'local', executionId, scope: 'all' })).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });

    const lines = logLines();
    if (unknown.ok) return;
    expect(lines).toContainEqual(expect.stringMatching(/ WARN Local: export of result 01NOSUCHRESULT0000000000000 did not start: \S/));
    expect(lines).toContainEqual(
      expect.stringContaining(` WARN Local: export of result E1 did not start: ${invalid.ok ? '' : invalid.error.message}`),
    );
    expect(lines).toContainEqual(expect.stringContaining(` WARN Local: export of result ${executionId} did not start: No file was chosen`));
  });

  it('masks a key the request carried', async () => {
    const key = harness.demoApiKey ?? '';
    expect(key).not.toBe('');
    await call('results:export', { accountId: 'local', executionId: key, format: 'xlsx' } as never);
    const text = logLines().join('\n');
    expect(text).toContain('export of result [redacted] did not start');
    expect(text).not.toContain(key);
  });
});
