// Run as a child process by the killed-write test: downloads a result into the cache at
// `dir` again, slowly (one page at a time, with a pause after each), printing the rows loaded
// so far, until the test kills it mid-way.
import { join } from 'node:path';
import { openCacheDb } from '../../../main/core/cache/cache-db.ts';
import { downloadResult, stagingTableName, type ResultShape } from '../../../main/core/cache/download.ts';
import { createServiceClient } from '../../../main/core/service-client/index.ts';

const [dir, baseUrl, apiKey, shapeJson] = process.argv.slice(2) as [string, string, string, string];
const shape = JSON.parse(shapeJson) as ResultShape;
const db = await openCacheDb(dir);
const client = createServiceClient({ baseUrl, apiKey, serviceName: 'DUNE' });
const table = stagingTableName();
await downloadResult(
  {
    db,
    client,
    shape,
    workDir: join(dir, 'downloads', table),
    pageRows: 500,
    loadBatchRows: 500,
    window: { min: 1, max: 1, roundTripMs: 0 },
    signal: new AbortController().signal,
    onRows: (rows) => {
      console.log(`rows ${rows}`);
      // keeps the download going long enough to be killed in the middle
      const until = Date.now() + 150;
      while (Date.now() < until);
    },
    now: () => new Date().toISOString(),
  },
  table,
);
console.log('finished');
