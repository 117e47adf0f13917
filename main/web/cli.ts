import '../service/thread/size-thread-pool.ts';
import { enableCompileCache } from 'node:module';

// `npm run web -- [--port N] [--data-dir DIR] [--no-build]`: the whole app in this process, for
// a browser. Stdout carries exactly one line, the URL to open; everything else goes to stderr.
//
// Launched, the host runs from its bundle (build/web-host.ts); run as `node main/web/cli.ts`, from
// its TypeScript sources. Either way Node's compile cache keeps their compiled code between starts,
// for this thread and the service's, so that only a start after a change pays for it. The host's
// modules are loaded after it is on, so that it serves them too.
const cache = enableCompileCache();
// a worker reads the variable as it starts: the service's thread then keeps its modules there too
if (cache.directory !== undefined) process.env.NODE_COMPILE_CACHE = cache.directory;
await import('./host-process.ts');
