import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import { duckdb } from './duckdb-module.ts';
import { API_KEY_HASHES } from './meta-schema.ts';

/**
 * Data folders of releases that stored API keys as they are (`api_keys`): at start the keys are
 * hashed (accounts/key-hash.ts), and the database is then written anew into a file that replaces
 * it. Hashing in place is not enough: DuckDB reuses the blocks a dropped table freed but does not
 * clear them, so the keys would stay readable in a copy of the folder. A marker file beside the
 * database stands until the new file is in place, so a start cut short does it again.
 */
export async function hashStoredKeys(path: string): Promise<void> {
  const marker = `${path}.hashing-keys`;
  const rebuilt = `${path}.rebuilt`;
  if (!existsSync(path)) return;
  for (const file of [rebuilt, `${rebuilt}.wal`]) rmSync(file, { force: true });
  const instance = await duckdb.DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    const name = String((await connection.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
    const plain = await connection.runAndReadAll(`SELECT 1 FROM duckdb_tables() WHERE database_name = ? AND table_name = 'api_keys'`, [
      name,
    ]);
    if (plain.currentRowCount === 0 && !existsSync(marker)) return;
    writeFileSync(marker, '');
    if (plain.currentRowCount > 0) {
      await connection.run('BEGIN TRANSACTION');
      await connection.run(API_KEY_HASHES);
      await connection.run(
        `INSERT INTO api_key_hashes SELECT sha256(api_key), account_id, created_at FROM api_keys ON CONFLICT (key_hash) DO NOTHING`,
      );
      await connection.run('DROP TABLE api_keys');
      await connection.run('COMMIT');
    }
    await connection.run(`ATTACH ${quoteLiteral(rebuilt)} AS rebuilt`);
    await connection.run(`COPY FROM DATABASE ${q(name)} TO rebuilt`);
    await connection.run('DETACH rebuilt');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  // closed, its write-ahead log written in: the old file and all it held go
  rmSync(`${path}.wal`, { force: true });
  renameSync(rebuilt, path);
  rmSync(marker);
  console.log('[service] API keys are now stored as hashes; the database file was written anew without them');
}
