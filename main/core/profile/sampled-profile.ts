import { quoteLiteral } from '../../common/sql-quote.ts';
import { fail, ok, type ColumnProfile, type Result } from '../../contract/index.ts';
import { columnsParam } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { valueErrors } from '../cache/cached-reads.ts';
import { misfitOf, storageCast, widerStorage } from '../cache/page-casts.ts';
import { storageType } from '../cache/storage-types.ts';
import { readSample } from '../results/read-sample.ts';
import type { ServiceClient } from '../service-client/index.ts';
import { describeColumn } from './column-profile.ts';

// A result the cache does not hold (larger than its budget, or not downloaded yet) is profiled on
// a random sample the service draws: its values go into a temporary table of the cache's DuckDB,
// typed as the cache would type them (bytes from their 0x hex, a uint256 past 128 bits widened),
// and are described as a cached result's column is.

export const PROFILE_SAMPLE_ROWS = 10_000;

export async function profileFromSample(
  db: CacheDb,
  client: ServiceClient,
  executionId: string,
  name: string,
): Promise<Result<ColumnProfile>> {
  const ask = (sampleCount: number) => readSample(client, { executionId, sampleCount, columns: columnsParam([name]), allowPartial: false });
  let sample = await ask(PROFILE_SAMPLE_ROWS);
  // a service whose responses hold fewer rows says how many it can send: a smaller sample, then
  const most = sample.ok ? null : /ask for at most (\d+)/.exec(sample.error.message);
  if (most) sample = await ask(Number(most[1]));
  if (!sample.ok) return sample;
  const wire = sample.data.columns[0];
  if (!wire) return fail('bad_request', `The service’s sample has no column “${name}”.`);
  const rows = sample.data.rows.map((row) => `(${row[0] === null || row[0] === undefined ? 'NULL' : quoteLiteral(String(row[0]))})`);
  return db.withConnection((connection) =>
    valueErrors(async () => {
      // typed as a download types them: a value its type cannot hold widens the type (see page-casts.ts)
      let type = storageType(wire.type);
      for (;;) {
        const values =
          rows.length > 0
            ? `SELECT ${storageCast('x', type, 0)} AS v FROM (VALUES ${rows.join(', ')}) AS t(x)`
            : `SELECT CAST(NULL AS ${type}) AS v WHERE false`;
        try {
          await connection.run(`CREATE OR REPLACE TEMP TABLE profile_sample AS ${values}`);
          break;
        } catch (error) {
          if (!misfitOf(error) || type === 'VARCHAR') throw error;
          type = widerStorage(type);
        }
      }
      try {
        const query = (sql: string) =>
          connection.runAndReadAll(`WITH src AS (SELECT v FROM profile_sample) ${sql}`).then((reader) => reader.getRows());
        const described = await describeColumn(query, { name: wire.name, type, duneType: wire.type }, wire.type);
        return ok({ ...described, sampled: { rows: sample.data.rows.length, of: sample.data.totalRowCount } });
      } finally {
        await connection.run('DROP TABLE IF EXISTS profile_sample');
      }
    }),
  );
}
