// Run as a child process by the killed-write test: downloads a result into the cache at
// `dir` again, slowly (one page at a time, with a pause after each), printing the rows loaded
// so far, until the test kills it mid-way.
import { openCacheDb } from '../../../main/core/cache/cache-db.ts';
import type { ResultShape } from '../../../main/core/cache/download.ts';
import { downloadPageByPage } from './page-by-page.ts';

const [dir, baseUrl, apiKey, shapeJson] = process.argv.slice(2) as [string, string, string, string];
await downloadPageByPage({
  db: await openCacheDb(dir),
  dir,
  baseUrl,
  apiKey,
  shape: JSON.parse(shapeJson) as ResultShape,
  onRows: (rows) => {
    console.log(`rows ${rows}`);
    // keeps the download going long enough to be killed in the middle
    const until = Date.now() + 150;
    while (Date.now() < until);
  },
});
console.log('finished');
