import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheDb, type CacheDb } from '../../../../main/core/cache/cache-db.ts';

// A download runs with the cache's DuckDB on one thread (see cache-db.ts). The threads come back
// once no such work is left, in turn with the shared connection's statements: the work's caller
// goes on at once, even while that connection is busy, and work that follows at once has the one
// thread too.

let dir: string;
let db: CacheDb;
let threadsAtStart: string;

const threads = (connection: DuckDBConnection) =>
  connection.runAndReadAll(`SELECT current_setting('threads')::VARCHAR`).then((reader) => String(reader.getRows()[0]![0]));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-one-thread-'));
  db = await openCacheDb(dir);
  threadsAtStart = await db.exclusive(threads);
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('work on one thread', () => {
  it('runs with one thread, and the threads are back for the statements after it', async () => {
    expect(await db.oneThread(() => db.exclusive(threads))).toBe('1');
    expect(await db.exclusive(threads)).toBe(threadsAtStart);
  });

  it('ends without waiting for the shared connection, busy with statements queued after it', async () => {
    let free: () => void = () => undefined;
    let held: Promise<void> = Promise.resolve();
    const outcome = await db.oneThread(async () => {
      held = db.exclusive(() => new Promise<void>((resolve) => (free = resolve)));
      // the statement holds the shared connection before the work ends
      await new Promise((resolve) => setImmediate(resolve));
      return 'done';
    });
    expect(outcome).toBe('done');
    free();
    await held;
    expect(await db.exclusive(threads)).toBe(threadsAtStart);
  });

  it('keeps one thread for work that begins as other work ends', async () => {
    const seen = await db.oneThread(async () => 'first').then(() => db.oneThread(() => db.exclusive(threads)));
    expect(seen).toBe('1');
    expect(await db.exclusive(threads)).toBe(threadsAtStart);
  });
});
