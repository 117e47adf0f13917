// Imported first by every host's entry (the desktop app, the browser host, `npm run service`),
// before anything that could start libuv's thread pool: libuv reads UV_THREADPOOL_SIZE once, when
// its pool starts, at the process's first file, DNS or crypto call that uses it. DuckDB's calls run
// on that pool too, and a long query holds its thread for as long as it runs: with libuv's 4,
// four long executions left no thread for a status read or a cancel. The service's thread shares
// this pool, and reads its size from its copy of this environment (executions/running-limit.ts).
// A size set outside the process is kept.
//
// Not on Windows: there libuv reads the C runtime's copy of the environment, which an assignment
// to process.env does not reach (libuv/libuv#4887, fixed after the libuv of Node 24 and Electron
// 45). Left unset, the service sees libuv's default and runs fewer executions at once to match.

const THREAD_POOL_SIZE = 16;

if (process.platform !== 'win32') process.env.UV_THREADPOOL_SIZE ??= String(THREAD_POOL_SIZE);
