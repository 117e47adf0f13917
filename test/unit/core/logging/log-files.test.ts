import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/core/logging/logger.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function logDir(): string {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-logs-'));
  return dir;
}

describe('the log files', () => {
  it('writes one file per day', () => {
    let now = new Date('2026-11-23T23:59:00Z');
    const logger = createLogger({ dir: logDir(), now: () => now });
    logger.info('late');
    now = new Date('2026-11-24T00:01:00Z');
    logger.info('early');
    expect(readdirSync(dir).sort()).toEqual(['querydesk-2026-11-23.log', 'querydesk-2026-11-24.log']);
    expect(readFileSync(join(dir, 'querydesk-2026-11-24.log'), 'utf8')).toBe('2026-11-24T00:01:00.000Z INFO early\n');
  });

  it('moves a full file aside and drops the oldest once all of them pass the cap', () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const logger = createLogger({ dir: logDir(), now: () => now, maxFileBytes: 200, maxTotalBytes: 500 });
    for (let i = 0; i < 40; i += 1) logger.info(`line ${String(i).padStart(2, '0')} ${'x'.repeat(40)}`);
    const names = readdirSync(dir).sort();
    const sizes = names.map((name) => readFileSync(join(dir, name)).length);
    expect(names).toContain('querydesk-2026-11-24.log');
    expect(names.some((name) => /^querydesk-2026-11-24\.\d+\.log$/.test(name))).toBe(true);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(200);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(500 + 200);
    // the newest line is in the current file; the first lines were dropped with the oldest part
    expect(readFileSync(join(dir, 'querydesk-2026-11-24.log'), 'utf8')).toContain('line 39');
    const everything = names.map((name) => readFileSync(join(dir, name), 'utf8')).join('');
    expect(everything).not.toContain('line 00');
  });

  it('keeps the latest warnings and errors for diagnostics, not the info lines', () => {
    const logger = createLogger({ dir: logDir() });
    logger.info('started');
    logger.warn('slow answer');
    logger.error('export failed', new Error('disk full'));
    const recent = logger.recent();
    expect(recent).toHaveLength(2);
    expect(recent[0]).toMatch(/WARN slow answer$/);
    expect(recent[1]).toMatch(/ERROR export failed Error: disk full/);
  });
});

describe('redaction', () => {
  const KEY = 'dune_live_Zq8v2NfX7pKcR4tY9wLm3Hs6';

  it('masks a known key wherever it appears, and key-like values by their labels', () => {
    const logger = createLogger({ dir: logDir() });
    logger.addSecret(KEY);
    logger.error(`refused key ${KEY} for account`);
    logger.error('request', new Error(`GET /api/v1/queries?api_key=${KEY}&limit=5 failed`));
    logger.warn('headers {"X-DUNE-API-KEY":"sk_other_9f8e7d6c5b4a3f2e1d0c","Accept":"application/json"}');
    logger.warn('proxy http://alice:s3cretPassw0rd@proxy.corp.example:3128 refused');
    logger.warn('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig');
    logger.warn('opened http://127.0.0.1:4000/#token=4f9c2a7b1e8d6c3a5f0b9e7d');
    const text = readdirSync(dir)
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('');
    for (const secret of [KEY, 'sk_other_9f8e7d6c5b4a3f2e1d0c', 's3cretPassw0rd', 'eyJhbGciOiJIUzI1NiJ9', '4f9c2a7b1e8d6c3a5f0b9e7d']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('refused key [redacted] for account');
    expect(text).toContain('"X-DUNE-API-KEY":"[redacted]"');
    expect(text).toContain('http://[redacted]@proxy.corp.example:3128');
    expect(logger.recent().join('\n')).not.toContain(KEY);
  });
});
