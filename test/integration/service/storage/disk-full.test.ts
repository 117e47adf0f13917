import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { diskFullService, fill } from '../../../../bench/probes/diskfull-run.ts';
import { makeSmallDisk } from '../../../../bench/probes/small-disk.ts';
import { ResultStore } from '../../../../main/service/results/result-store.ts';
import { isDiskFull } from '../../../../main/service/storage/disk-full.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';
import { openResults } from '../../../../main/service/storage/results-file.ts';

// On a small filesystem of its own (tmpfs, else a loop device: root on Linux); skipped, saying
// why, where none can be mounted. `npm run diskfull:service` runs the same probe and prints it.

describe('the service on a full disk', () => {
  it('fails with words saying so, leaves no file behind, and works again as soon as there is space', async (context) => {
    const report = await diskFullService({ megabytes: 64 });
    if (report.skipped) {
      console.log(`disk-full probe skipped: ${report.skipped}`);
      return context.skip();
    }
    expect(report.resultError).toMatch(/^the service's disk is full: /);
    // the failed result gave its space back
    expect(report.freeBefore - report.freeAfter).toBeLessThan(1024 * 1024);
    // filled by another file while a result was written: it failed, and said so once its end could be written
    expect(report.filledWhileWriting).toMatchObject({
      ended: 'QUERY_STATE_FAILED',
      error: expect.stringMatching(/^the service's disk is full: /),
    });
    expect(report.whileFull.map((a) => `${a.request}: ${a.status}`)).toEqual(
      ['upload', 'insert', 'create query', 'create table', '/sql/execute'].map((request) => `${request}: 507`),
    );
    expect(report.afterFreed.filter((a) => a.status !== 200 || a.error !== undefined)).toEqual([]);
    expect(report.leftovers).toEqual([]);
    expect(report.problems).toEqual([]);
  }, 120_000);

  it('deletes a result whose last write met the full disk, and writes the next once there is space', async (context) => {
    const disk = makeSmallDisk(48);
    if ('reason' in disk) {
      console.log(`disk-full result test skipped: ${disk.reason}`);
      return context.skip();
    }
    const source = await (await DuckDBInstance.create(':memory:')).connect();
    const files = await openResults(disk.dir, '64MB');
    try {
      const store = new ResultStore(files, join(disk.dir, 'tmp'));
      const columns = [
        { name: 'i', type: 'BIGINT' },
        { name: 'h', type: 'VARCHAR' },
      ];
      const write = async (id: string, rows: number, before: () => void = () => undefined) => {
        const writer = await store.createWriter(id, columns);
        const result = await source.stream(`SELECT i, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS h FROM range(${rows}) t(i)`);
        for await (const chunk of result) writer.append(chunk);
        before();
        return writer.finish(Number.MAX_SAFE_INTEGER);
      };
      // the rows are in the writer's memory (under a row group) when the disk fills: its last write fails
      const failed = await write('full', 100_000, () => fill(join(disk.dir, 'filler'))).catch((error: unknown) => error);
      expect(isDiskFull(failed)).toBe(true);
      expect(readdirSync(join(disk.dir, 'results'))).toEqual([]);
      rmSync(join(disk.dir, 'filler'));
      expect(await write('after', 1000)).toMatchObject({ rowCount: 1000, truncated: false });
      expect(readdirSync(join(disk.dir, 'results'))).toEqual(['after.duckdb']);
    } finally {
      source.closeSync();
      await Promise.all([files.db.close(), files.writer.close()]);
      disk.remove();
    }
  });

  it('opens a database again that DuckDB gave up on when a checkpoint met the full disk, losing nothing', async (context) => {
    const disk = makeSmallDisk(16);
    if ('reason' in disk) {
      console.log(`disk-full database test skipped: ${disk.reason}`);
      return context.skip();
    }
    try {
      const db = await Database.open(join(disk.dir, 'records.duckdb'), [
        `SET checkpoint_threshold = '1GB'`,
        'CREATE TABLE IF NOT EXISTS t (a VARCHAR)',
      ]);
      await db.run(`INSERT INTO t SELECT md5(i::VARCHAR) || md5((i + 1)::VARCHAR) FROM range(80000) t(i)`);
      fill(join(disk.dir, 'filler'));
      await expect(db.run('CHECKPOINT')).rejects.toThrow(/No space left on device/);
      await expect(db.rows('SELECT count(*)::INTEGER AS n FROM t')).rejects.toThrow(/invalidated/);
      rmSync(join(disk.dir, 'filler'));
      expect(await db.rows('SELECT count(*)::INTEGER AS n FROM t')).toEqual([{ n: 80000 }]);
      await db.run(`INSERT INTO t VALUES ('after')`);
      expect(await db.read('SELECT count(*)::INTEGER AS n FROM t')).toEqual([{ n: 80001 }]);
      await db.close();
    } finally {
      disk.remove();
    }
  });
});
