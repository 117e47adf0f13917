import '../service/thread/size-thread-pool.ts';

// `npm run web -- [--port N] [--data-dir DIR] [--no-build]`: the whole app in this process, for
// a browser. Stdout carries exactly one line, the URL to open; everything else goes to stderr.
await import('./host-process.ts');
