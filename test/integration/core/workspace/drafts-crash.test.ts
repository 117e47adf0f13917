import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../../main/core/index.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { caller, memoryKeychain } from '../core-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'querydesk-drafts-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('drafts', () => {
  it('survive the process being killed with SIGKILL mid-typing: the last confirmed keystroke or a later one, never a torn file', async () => {
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, [join(import.meta.dirname, 'draft-typist.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      let confirmed = 0;
      await new Promise<void>((resolve) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          confirmed = Number(line);
          // Killed at a different point in each round.
          if (confirmed >= 30 + round * 17) {
            child.kill('SIGKILL');
            resolve();
          }
        });
      });
      await new Promise((resolve) => child.once('exit', resolve));

      const core = await createCore({
        host: 'web',
        version: '0.0.0',
        localService: { baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' },
        emit: () => undefined,
        dataDir: dir,
        keyVault: new KeyVault(memoryKeychain()),
      });
      const opened = await caller(core)('workspace:open', { accountId: 'local' });
      await core.dispose();
      if (!opened.ok) throw new Error(opened.error.message);
      expect(opened.data.drafts).toHaveLength(1);
      const [draft] = opened.data.drafts;
      const typed = Number(/^SELECT (\d+) AS typed -- x{20000}$/.exec(draft!.sql)?.[1]);
      expect(typed).toBeGreaterThanOrEqual(confirmed);
      expect(draft!.parameterValues).toEqual({ n: String(typed) });
    }
  });
});
