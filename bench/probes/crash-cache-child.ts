// Run as a child process by the cache's crash probe: the app's result cache at `dir` downloads a
// result, printing the rows arrived as it goes and the rows committed to the file (as the record of
// a kept download has them), until the probe kills it.
import { openResultCache } from '../../main/core/cache/result-cache.ts';
import { createServiceClient } from '../../main/core/service-client/index.ts';

const [dir, baseUrl, apiKey, executionId] = process.argv.slice(2) as [string, string, string, string];
const cache = await openResultCache({ dir, onStatus: (status) => console.log(`${status.state} ${status.rowsLoaded}`) });
const started = await cache.start('local', createServiceClient({ baseUrl, apiKey, serviceName: 'DUNE' }), executionId, false);
if (!started.ok) throw new Error(started.error.message);

// another connection reads what the download has committed so far
let committed = 0;
const watch = setInterval(() => {
  void cache.db
    .withConnection(async (connection) =>
      Number((await connection.runAndReadAll('SELECT coalesce(max(row_count), 0) FROM kept_downloads')).getRows()[0]![0]),
    )
    .then((rows) => {
      if (rows > committed) console.log(`committed ${(committed = rows)}`);
    })
    .catch(() => undefined);
}, 10);
watch.unref();
