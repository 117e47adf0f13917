// Run as a child process by the killed-write test: downloads a result into the cache at
// `dir` again, slowly (one page at a time, with a pause after each), printing the rows arrived
// so far and each load committed to the file (or, for pages kept in place, each record of where
// they end), until the test kills it mid-way.
import { openCacheDb } from '../../../../main/core/cache/cache-db.ts';
import type { ResultShape } from '../../../../main/core/cache/download.ts';
import type { PageFormats } from '../../../../main/core/cache/page-fetch.ts';
import { downloadPageByPage } from './page-by-page.ts';

const [dir, baseUrl, apiKey, shapeJson, formats] = process.argv.slice(2) as [string, string, string, string, PageFormats];
const db = await openCacheDb(dir);
await downloadPageByPage({
  // each load of a page is committed before its write-back (see page-loader.ts)
  db: {
    ...db,
    writeBack: () => {
      db.writeBack();
      console.log('loaded');
    },
  },
  dir,
  baseUrl,
  apiKey,
  shape: JSON.parse(shapeJson) as ResultShape,
  formats,
  onRows: (rows) => {
    console.log(`rows ${rows}`);
    // keeps the download going long enough to be killed in the middle
    const until = Date.now() + 150;
    while (Date.now() < until);
  },
});
console.log('finished');
