// Run as a child process by the cache's crash probe: the app's result cache at `dir` downloads a
// result, printing the rows arrived as it goes, until the probe kills it.
import { openResultCache } from '../../main/core/cache/result-cache.ts';
import { createServiceClient } from '../../main/core/service-client/index.ts';

const [dir, baseUrl, apiKey, executionId] = process.argv.slice(2) as [string, string, string, string];
const cache = await openResultCache({ dir, onStatus: (status) => console.log(`${status.state} ${status.rowsLoaded}`) });
const started = await cache.start('local', createServiceClient({ baseUrl, apiKey, serviceName: 'DUNE' }), executionId, false);
if (!started.ok) throw new Error(started.error.message);
