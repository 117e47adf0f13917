import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/core/logging/logger.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';

// The keys core reads or is given are masked in the log from then on; "Copy diagnostics" says
// what a bug report needs without them.

let harness: Harness;
let logsDir: string;
beforeAll(async () => {
  harness = await startHarness();
  logsDir = mkdtempSync(join(tmpdir(), 'querydesk-core-logs-'));
});
afterAll(async () => {
  await harness.close();
  rmSync(logsDir, { recursive: true, force: true });
});

function logText(): string {
  return readdirSync(logsDir)
    .map((name) => readFileSync(join(logsDir, name), 'utf8'))
    .join('');
}

describe('logs and diagnostics of a core', () => {
  it('masks the keys it was given, and reports versions, accounts and errors without them', async () => {
    const logger = createLogger({ dir: logsDir });
    const paths = { dataDir: harness.dir, logsDir, settingsFile: join(harness.coreDir, 'settings.json') };
    const call = caller(await harness.startCore({ keyVault: new KeyVault(memoryKeychain()), logger, paths }));
    const demoKey = harness.demoApiKey ?? '';
    const wrongKey = 'typo_key_7Hq2Lx9Vb4Nc';

    expect((await call('accounts:add', { label: 'Team', baseUrl: harness.baseUrl, apiKey: demoKey, kind: 'team' })).ok).toBe(true);
    expect(await call('accounts:add', { label: 'Typo', baseUrl: harness.baseUrl, apiKey: wrongKey })).toMatchObject({
      ok: false,
      error: { code: 'bad_key' },
    });
    await call('settings:set', { proxy: 'http://bob:hunter2hunter2@127.0.0.1:3128' });
    logger.error(`the service refused ${wrongKey} and ${demoKey}`);

    const log = logText();
    expect(log).toContain('ERROR the service refused [redacted] and [redacted]');
    for (const key of [demoKey, wrongKey]) expect(log).not.toContain(key);

    const diagnostics = await call('settings:diagnostics', {});
    expect(diagnostics.ok).toBe(true);
    if (!diagnostics.ok) return;
    const text = diagnostics.data.text;
    expect(text).toContain('Querydesk 0.0.0 (browser host)');
    expect(text).toContain(`Runtime: Node ${process.versions.node}`);
    expect(text).toContain(`Accounts: Local and 1 more (team on ${new URL(harness.baseUrl).host}, key keychain)`);
    expect(text).toContain('"proxy":"http://[redacted]@127.0.0.1:3128"');
    expect(text).toContain('Recent errors (1):');
    expect(text).toContain('the service refused [redacted] and [redacted]');
    for (const secret of [demoKey, wrongKey, 'hunter2hunter2']) expect(text).not.toContain(secret);
  });

  it('cannot open a folder in the browser host, and says where the logs are', async () => {
    const call = caller(
      await harness.startCore({
        keyVault: new KeyVault(memoryKeychain()),
        paths: { dataDir: harness.dir, logsDir, settingsFile: join(harness.coreDir, 'settings.json') },
      }),
    );
    const opened = await call('settings:openLogsFolder', {});
    expect(opened).toMatchObject({ ok: false, error: { code: 'not_found' } });
    if (!opened.ok) expect(opened.error.message).toContain(logsDir);
  });
});
