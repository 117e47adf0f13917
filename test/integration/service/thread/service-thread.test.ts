import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../../main/core/logging/logger.ts';
import { AccountsConfigError } from '../../../../main/service/accounts/accounts-config.ts';
import type { RunningService } from '../../../../main/service/index.ts';
import { startServiceThread } from '../../../../main/service/thread/start-thread.ts';
import { newDataDir } from '../service-harness.ts';

// The hosts' service in a worker thread of its own: it answers whatever the thread that started
// it is doing, starts or fails as the service does, and is gone once closed.

/** A request from another process, made while this thread waits for that process and does nothing else. */
function statusFromAnotherProcess(url: string, key: string): string {
  const script = `fetch(${JSON.stringify(url)}, { headers: { 'x-dune-api-key': ${JSON.stringify(key)} } }).then((r) => process.stdout.write(String(r.status)))`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
}

describe('the service in a thread of its own', () => {
  const dirs: string[] = [];
  const running: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = newDataDir();
    dirs.push(dir);
    return dir;
  };

  it('answers while the thread that started it is blocked', async () => {
    const onFallback = vi.fn();
    const service = await startServiceThread({ dataDir: dataDir() }, { onFallback });
    running.push(service);
    expect(onFallback).not.toHaveBeenCalled();
    // in this thread, the request would wait for this thread, which waits for the request: the
    // other process would time out
    expect(statusFromAnotherProcess(`${service.baseUrl}/api/v1/query/1`, service.demoApiKey!)).toBe('200');
  });

  it('is gone once closed, and closing again is harmless', async () => {
    const onCrash = vi.fn();
    const service = await startServiceThread({ dataDir: dataDir() }, { onCrash });
    const url = `${service.baseUrl}/api/v1/query/1`;
    expect((await fetch(url, { headers: { 'x-dune-api-key': service.demoApiKey! } })).status).toBe(200);
    await service.close();
    await service.close();
    await expect(fetch(url)).rejects.toThrow();
    expect(onCrash).not.toHaveBeenCalled();
  });

  it("passes each line it prints through the host's redactor, to stderr only", async () => {
    const dir = dataDir();
    // a folder of the former layout: the service says at start that it converted it
    (await DuckDBInstance.create(join(dir, 'tables.duckdb'))).closeSync();
    const logger = createLogger({ dir: join(dir, 'logs') });
    // a value the log masks, as it would a key, in the line the service prints
    logger.addSecret('tables.duckdb.converted');
    const written = { stdout: [] as string[], stderr: [] as string[] };
    for (const name of ['stdout', 'stderr'] as const) {
      const write = process[name].write.bind(process[name]) as (...args: unknown[]) => boolean;
      vi.spyOn(process[name], 'write').mockImplementation((...args: unknown[]) => {
        written[name].push(String(args[0]));
        return write(...args);
      });
    }
    try {
      running.push(await startServiceThread({ dataDir: dir }, { redact: logger.redact }));
      while (!written.stderr.some((text) => text.includes('uploaded tables moved')))
        await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      vi.restoreAllMocks();
    }
    expect(written.stderr.join('')).toContain(
      '[service] uploaded tables moved from tables.duckdb to files of their own; [redacted] can be deleted\n',
    );
    expect([...written.stdout, ...written.stderr].join('')).not.toContain('tables.duckdb.converted');
  });

  it('throws the error of a service that cannot start, as its own class', async () => {
    const onFallback = vi.fn();
    const started = startServiceThread({ dataDir: dataDir(), accounts: { accounts: 'none' } }, { onFallback });
    await expect(started).rejects.toThrow(AccountsConfigError);
    await expect(started).rejects.toThrow(/invalid accounts/);
    expect(onFallback).not.toHaveBeenCalled();
  });
});
