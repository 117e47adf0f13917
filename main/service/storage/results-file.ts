import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Database } from './duckdb.ts';

// Results are stored in the storage format of DuckDB 1.5, the first that can hold VARIANT columns;
// a file from before is copied into that format once, at start.
const FORMAT = { storage_compatibility_version: 'v1.5.0' };
// pages are written by DuckDB, timestamps with a time zone included: in UTC
const SESSION = [`SET TimeZone = 'UTC'`];

export async function openResults(path: string, memoryLimit: string): Promise<Database> {
  const config = { ...FORMAT, memory_limit: memoryLimit };
  const upgrading = `${path}.upgrading`;
  // a copy that a killed process left unfinished is started again from the old file
  if (existsSync(upgrading)) {
    await rm(path, { force: true });
    await rm(`${path}.wal`, { force: true });
    await rename(upgrading, path);
  }
  const results = await Database.open(path, [], SESSION, config);
  if (await holdsVariant(results)) return results;
  await results.close();
  await rename(path, upgrading);
  const upgraded = await Database.open(path, [], SESSION, config);
  const old = upgrading.replaceAll("'", "''");
  await upgraded.run(`ATTACH '${old}' AS old_results (READ_ONLY)`);
  await upgraded.run(`COPY FROM DATABASE old_results TO results`);
  await upgraded.run(`DETACH old_results`);
  await upgraded.run(`CHECKPOINT`);
  await rm(upgrading);
  console.log('[service] stored results copied into the storage format of DuckDB 1.5 (VARIANT columns)');
  return upgraded;
}

/** Whether the file's storage format can hold a VARIANT column (asked, then undone). */
async function holdsVariant(db: Database): Promise<boolean> {
  return db.exclusive(async (connection) => {
    await connection.run('BEGIN TRANSACTION');
    try {
      await connection.run('CREATE TABLE variant_probe (v VARIANT)');
      return true;
    } catch {
      return false;
    } finally {
      await connection.run('ROLLBACK').catch(() => undefined);
    }
  });
}
